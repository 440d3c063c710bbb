// Which zone-days the history compacts and prunes (src/history/plan.ts), as data tables.
import { describe, expect, it } from 'vitest';
import {
  lastColdDay,
  planCompaction,
  planPruning,
  type HistoryFacts,
  type LedgerFacts,
} from '../../src/history/plan.js';
import type { DayState } from '../../src/store/ledger-types.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');

const ledger = (
  source: 'origin' | 'shield',
  day: string,
  state: DayState,
  extra: Partial<LedgerFacts> = {},
): LedgerFacts => ({
  source,
  zone_id: 1,
  log_date: day,
  state,
  archived_entries: 10,
  quarantined_entries: 1,
  lease_owner: null,
  lease_until: null,
  retention_removed_at: null,
  ...extra,
});

const compacted = (l: LedgerFacts, extra: Partial<HistoryFacts> = {}): HistoryFacts => ({
  source: l.source,
  zone_id: l.zone_id,
  log_date: l.log_date,
  compacted_at: NOW - 1000,
  pruned_at: null,
  ledger_entries: l.archived_entries,
  ledger_quarantined: l.quarantined_entries,
  part: 'part-0-9_1_2.parquet',
  ...extra,
});

const plan = (rows: LedgerFacts[], history: HistoryFacts[] = []) =>
  planCompaction({ now: NOW, ledger: rows, history, originLookbackDays: 2 }).map(
    (p) => `${p.source} ${p.day} ${p.reason}`,
  );

describe('planCompaction', () => {
  it.each<[string, LedgerFacts, boolean]>([
    ['a complete day', ledger('origin', '2026-11-24', 'complete'), true],
    ['today, even complete', ledger('origin', '2026-11-25', 'complete'), false],
    [
      'a complete day whose lease is live (a pass is on it)',
      ledger('shield', '2026-11-24', 'complete', { lease_owner: 'j', lease_until: NOW + 1 }),
      false,
    ],
    [
      'a complete day whose lease ran out',
      ledger('shield', '2026-11-24', 'complete', { lease_owner: 'j', lease_until: NOW }),
      true,
    ],
    // Shield serves today and the two days before: 11-23 is still served, 11-22 is gone.
    ['a partial Shield day the API still serves', ledger('shield', '2026-11-23', 'partial'), false],
    ['a partial Shield day the API no longer serves', ledger('shield', '2026-11-22', 'partial'), true],
    ['an expired Shield day', ledger('shield', '2026-11-22', 'expired'), true],
    ['a failed Shield day gone from the API', ledger('shield', '2026-11-21', 'failed'), true],
    ['an incomplete Shield day gone from the API', ledger('shield', '2026-11-22', 'incomplete'), true],
    // Origin: no published window; the scheduler fetches the two days before today (originLookbackDays).
    ['an origin day still fetched', ledger('origin', '2026-11-23', 'partial'), false],
    ['an origin day no longer fetched', ledger('origin', '2026-11-22', 'failed'), true],
    ['a running day no longer fetched and held by no one', ledger('origin', '2026-11-20', 'running'), true],
    [
      'a day retention removed',
      ledger('origin', '2026-11-20', 'complete', { retention_removed_at: NOW - 1 }),
      false,
    ],
  ])('%s: %s', (_name, row, wanted) => {
    expect(plan([row])).toEqual(wanted ? [`${row.source} ${row.log_date} settled`] : []);
  });

  it('compacts a day again only when the ledger totals moved since', () => {
    const day = ledger('origin', '2026-11-20', 'complete');
    expect(plan([day], [compacted(day)])).toEqual([]);
    expect(plan([{ ...day, archived_entries: 11 }], [compacted(day)])).toEqual(['origin 2026-11-20 changed']);
    expect(plan([{ ...day, quarantined_entries: 2 }], [compacted(day)])).toEqual([
      'origin 2026-11-20 changed',
    ]);
    // A record from before parts (no part named): merged again, into one part.
    expect(plan([day], [compacted(day, { part: null })])).toEqual(['origin 2026-11-20 changed']);
    // A lease row of a compaction that never finished is not a compaction.
    expect(plan([day], [compacted(day, { compacted_at: null, ledger_entries: null })])).toEqual([
      'origin 2026-11-20 settled',
    ]);
  });

  it('is ordered oldest day first and honours the filter', () => {
    const rows = [
      ledger('shield', '2026-11-21', 'complete'),
      ledger('origin', '2026-11-24', 'complete'),
      ledger('origin', '2026-11-21', 'complete', { zone_id: 2 }),
      ledger('origin', '2026-11-21', 'complete'),
    ];
    expect(plan(rows)).toEqual([
      'origin 2026-11-21 settled',
      'origin 2026-11-21 settled',
      'shield 2026-11-21 settled',
      'origin 2026-11-24 settled',
    ]);
    const only = (filter: Parameters<typeof planCompaction>[0]['filter']) =>
      planCompaction({ now: NOW, ledger: rows, history: [], originLookbackDays: 2, filter }).map(
        (p) => `${p.source} ${p.zone} ${p.day}`,
      );
    expect(only({ source: 'shield' })).toEqual(['shield 1 2026-11-21']);
    expect(only({ zones: [2] })).toEqual(['origin 2 2026-11-21']);
    expect(only({ from: '2026-11-22' as never, to: '2026-11-24' as never })).toEqual(['origin 1 2026-11-24']);
  });
});

describe('planPruning', () => {
  const prune = (rows: LedgerFacts[], history: HistoryFacts[], hotDays: number | null) =>
    planPruning({ now: NOW, ledger: rows, history, hotDays, originLookbackDays: 2 }).map((p) => p.day);

  it('keeps hotDays whole days before today; null keeps every row', () => {
    expect(lastColdDay(NOW, 7)).toBe('2026-11-17');
    expect(lastColdDay(NOW, 0)).toBe('2026-11-24');
    const old = ledger('origin', '2026-11-17', 'complete');
    const hot = ledger('origin', '2026-11-18', 'complete');
    expect(prune([old, hot], [compacted(old), compacted(hot)], 7)).toEqual(['2026-11-17']);
    expect(prune([old, hot], [compacted(old), compacted(hot)], null)).toEqual([]);
  });

  it('prunes only days compacted from the totals they have now, not yet pruned, no longer fetched', () => {
    const day = ledger('origin', '2026-11-10', 'complete');
    expect(prune([day], [compacted(day)], 0)).toEqual(['2026-11-10']);
    expect(prune([{ ...day, archived_entries: 12 }], [compacted(day)], 0)).toEqual([]);
    expect(prune([day], [compacted(day, { pruned_at: NOW })], 0)).toEqual([]);
    expect(prune([day], [compacted(day, { compacted_at: null })], 0)).toEqual([]);
    expect(prune([], [compacted(day)], 0)).toEqual([]);
    // hotDays 0, but yesterday is still fetched.
    const yesterday = ledger('origin', '2026-11-24', 'complete');
    expect(prune([yesterday], [compacted(yesterday)], 0)).toEqual([]);
    const busy = { ...day, lease_owner: 'j', lease_until: NOW + 5 };
    expect(prune([busy], [compacted(day)], 0)).toEqual([]);
  });
});
