// Pure: day partitions' names and bounds, the days a page needs, and what retention drops.
import { describe, expect, it } from 'vitest';
import {
  daysAround,
  daysOf,
  parsePartition,
  partitionOf,
  partitionsOfDays,
  retentionPlan,
} from '../../src/store/postgres/partition-plan.js';
import type { Day } from '../../src/time/utc-day.js';

const D = (s: string) => s as Day;
const ms = (iso: string) => Date.parse(iso);

describe('partition plan', () => {
  it.each([
    [
      'origin_error_logs',
      '2026-11-20',
      'origin_error_logs_20261120',
      String(ms('2026-11-20T00:00:00Z')),
      String(ms('2026-11-21T00:00:00Z')),
    ],
    [
      'shield_event_logs',
      '2026-12-31',
      'shield_event_logs_20261231',
      String(ms('2026-12-31T00:00:00Z')),
      String(ms('2027-01-01T00:00:00Z')),
    ],
    ['quarantined_entries', '2024-02-28', 'quarantined_entries_20240228', "'2024-02-28'", "'2024-02-29'"],
    ['quarantined_entries', '2024-02-29', 'quarantined_entries_20240229', "'2024-02-29'", "'2024-03-01'"],
    // The last day there is: no next day to end at (its day after was written `+010000-01-01`).
    ['quarantined_entries', '9999-12-31', 'quarantined_entries_99991231', "'9999-12-31'", 'MAXVALUE'],
    [
      'shield_event_logs',
      '9999-12-31',
      'shield_event_logs_99991231',
      String(Date.UTC(9999, 11, 31)),
      String(Date.UTC(10000, 0, 1)),
    ],
  ] as const)('%s %s is %s FROM %s TO %s', (parent, day, name, from, to) => {
    const p = partitionOf(parent, D(day));
    expect(p).toEqual({ parent, name, day, from, to });
    expect(parsePartition(name)).toEqual(p);
  });

  // Quarantine partitions were made for every entry's day, so a page with an entry in year 9999 needed one
  // for that day; a quarantined entry is filed under the day it was fetched for.
  it('makes entry partitions for the days of entries and quarantine partitions for the fetched days', () => {
    expect(
      partitionsOfDays([D('2026-11-20'), D('9999-12-31')], [D('2026-11-21')]).map((p) => p.name),
    ).toEqual([
      'origin_error_logs_20261120',
      'shield_event_logs_20261120',
      'origin_error_logs_99991231',
      'shield_event_logs_99991231',
      'quarantined_entries_20261121',
    ]);
  });

  it('does not take a name it did not make', () => {
    for (const name of [
      'shield_event_logs_far',
      'origin_error_logs_2026112',
      'ingest_ledger_20261120',
      'x',
    ]) {
      expect(parsePartition(name)).toBeNull();
    }
  });

  it('lists the distinct days of a page, leaving the year 10000 on to the far partition', () => {
    const ts = [
      ms('2026-11-20T23:59:59.999Z'),
      ms('2026-11-20T00:00:00Z'),
      ms('2026-11-21T00:00:00Z'),
      ms('2026-11-20T12:00:00Z'),
      Date.UTC(10000, 0, 1),
      Date.UTC(9999, 11, 31, 23),
    ];
    expect(daysOf(ts)).toEqual(['2026-11-20', '2026-11-21', '9999-12-31']);
    expect(daysOf([])).toEqual([]);
  });

  it('makes yesterday, today and the days ahead', () => {
    expect(daysAround(ms('2026-11-20T23:00:00Z'), 2)).toEqual([
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
  });

  it('drops partitions wholly before the cutoff and trims an entry partition it falls inside', () => {
    const parts = [
      partitionOf('origin_error_logs', D('2026-11-18')),
      partitionOf('origin_error_logs', D('2026-11-19')),
      partitionOf('origin_error_logs', D('2026-11-20')),
      partitionOf('quarantined_entries', D('2026-11-19')),
      partitionOf('quarantined_entries', D('2026-11-20')),
    ];
    const atMidnight = retentionPlan(parts, ms('2026-11-20T00:00:00Z'));
    expect(atMidnight.drop.map((p) => p.name)).toEqual([
      'origin_error_logs_20261118',
      'origin_error_logs_20261119',
      'quarantined_entries_20261119',
    ]);
    // The day after the cutoff loses the rows fetched for an earlier day (log_date), if any.
    expect(atMidnight.trim.map((p) => p.name)).toEqual(['origin_error_logs_20261120']);
    const atNoon = retentionPlan(parts, ms('2026-11-20T12:00:00Z'));
    expect(atNoon.trim.map((p) => p.name)).toEqual(['origin_error_logs_20261120']);
    expect(atNoon.drop.map((p) => p.name)).not.toContain('quarantined_entries_20261120');
  });
});
