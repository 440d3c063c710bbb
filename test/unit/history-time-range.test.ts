// The timestamp markers beside a zone-day's file (time-range.ts) and the guarded view parts made of them
// (file-parts.ts): names that only a marker parses as, the union of the markers a directory holds, and
// one part per day whose guard is the union of its files' ranges.
import { describe, expect, it } from 'vitest';
import { fileParts, inTimeOrder, timeGuard } from '../../src/history/file-parts.js';
import type { PublishedDay } from '../../src/history/published-days.js';
import { timeRangeName, timeRangeOfName, timeRangeOfNames } from '../../src/history/time-range.js';

describe('timestamp markers', () => {
  it.each([
    [{ min: 1795132800000n, max: 1795219199999n }, '_timestamps_1795132800000_1795219199999'],
    [{ min: -5n, max: 0n }, '_timestamps_-5_0'],
    [{ min: 7n, max: 7n }, '_timestamps_7_7'],
    [{ min: -(2n ** 63n), max: 2n ** 63n - 1n }, '_timestamps_-9223372036854775808_9223372036854775807'],
  ])('names a range and reads it back (%#)', (range, name) => {
    expect(timeRangeName(range)).toBe(name);
    expect(timeRangeOfName(name)).toEqual(range);
  });

  it('refuses a range that is not one', () => {
    expect(() => timeRangeName({ min: 2n, max: 1n })).toThrow(RangeError);
    expect(() => timeRangeName({ min: 0n, max: 2n ** 63n })).toThrow(RangeError);
  });

  it.each([
    'data.parquet',
    'data.parquet.tmp-1-ab',
    '_timestamps_2_1',
    '_timestamps_1',
    '_timestamps_1_2_3',
    '_timestamps_1_2.tmp',
    '_timestamps_+1_2',
    '_timestamps_1_9223372036854775808',
    '_timestamps_ 1_2',
  ])('reads no range from %j', (name) => {
    expect(timeRangeOfName(name)).toBeNull();
  });

  it('takes the union of every marker in a directory, none when there is none', () => {
    expect(timeRangeOfNames(['data.parquet'])).toBeNull();
    expect(
      timeRangeOfNames([
        '_timestamps_10_20',
        'data.parquet',
        '_timestamps_5_12',
        '_timestamps_x_1',
        '_timestamps_15_30',
      ]),
    ).toEqual({ min: 5n, max: 30n });
  });
});

const day = (zone: number, d: string, timestamps?: [bigint, bigint]): PublishedDay => ({
  zone,
  day: d,
  file: `/h/origin_error_logs/zone=${zone}/day=${d}/data.parquet`,
  ...(timestamps ? { timestamps: { min: timestamps[0], max: timestamps[1] } } : {}),
});

describe('guarded view parts', () => {
  it('guards timestamp and time with the range', () => {
    expect(timeGuard({ min: 100n, max: 200n })).toBe(
      '"timestamp" BETWEEN 100 AND 200 AND epoch_ms("timestamp") BETWEEN epoch_ms(100::BIGINT) AND epoch_ms(200::BIGINT)',
    );
    // Beyond what a TIMESTAMP holds, epoch_ms of the bound would fail: timestamp only.
    expect(timeGuard({ min: 0n, max: 2n ** 62n })).toBe(`"timestamp" BETWEEN 0 AND ${2n ** 62n}`);
  });

  it('makes one part per day, guarded by the union of its files, apart from files with no marker', () => {
    const parts = fileParts('origin_error_logs', [
      day(1, '2026-11-21', [50n, 60n]),
      day(1, '2026-11-20', [10n, 20n]),
      day(2, '2026-11-20', [5n, 12n]),
      day(3, '2026-11-20'),
    ]);
    expect(parts.map((p) => p.guard)).toEqual([
      timeGuard({ min: 5n, max: 20n }),
      null,
      timeGuard({ min: 50n, max: 60n }),
    ]);
    expect(parts[0]!.from).toContain(
      "'/h/origin_error_logs/zone=1/day=2026-11-20/data.parquet', '/h/origin_error_logs/zone=2/day=2026-11-20/data.parquet'",
    );
    expect(parts[1]!.from).toContain("'/h/origin_error_logs/zone=3/day=2026-11-20/data.parquet']");
    // The zone and log_date come from the path.
    expect(parts[0]!.from).toContain('"zone" AS "pull_zone_id", "log_id", "day" AS "log_date", "timestamp"');
  });

  it('puts every file in one part without a guard when the statement cannot use the guards', () => {
    const parts = fileParts(
      'origin_error_logs',
      [day(1, '2026-11-21', [50n, 60n]), day(1, '2026-11-20', [10n, 20n]), day(3, '2026-11-20')],
      false,
    );
    expect(parts).toHaveLength(1);
    expect(parts[0]!.guard).toBeNull();
    expect(parts[0]!.from).toContain(
      "['/h/origin_error_logs/zone=1/day=2026-11-21/data.parquet', '/h/origin_error_logs/zone=1/day=2026-11-20/data.parquet', '/h/origin_error_logs/zone=3/day=2026-11-20/data.parquet']",
    );
  });

  it("lists the files and the parts in the statement's time order, files of unknown timestamps last", () => {
    const days = [
      day(1, '2026-11-20', [10n, 20n]),
      day(3, '2026-11-20'),
      day(1, '2026-11-21', [50n, 60n]),
      day(2, '2026-11-20', [5n, 30n]),
      day(2, '2026-11-21', [40n, 70n]),
    ];
    const zones = (o: 'newest' | 'oldest' | null) => inTimeOrder(days, o).map((d) => `${d.zone}/${d.day}`);
    expect(zones('newest')).toEqual([
      '2/2026-11-21',
      '1/2026-11-21',
      '2/2026-11-20',
      '1/2026-11-20',
      '3/2026-11-20',
    ]);
    expect(zones('oldest')).toEqual([
      '2/2026-11-20',
      '1/2026-11-20',
      '2/2026-11-21',
      '1/2026-11-21',
      '3/2026-11-20',
    ]);
    expect(inTimeOrder(days, null)).toBe(days);
    // One part: its files in that order; guarded parts: the days in it, the unknown last.
    const [one] = fileParts('origin_error_logs', days, false, 'newest');
    const at = (zone: number, d: string) => one!.from.indexOf(`zone=${zone}/day=${d}/`);
    expect(at(2, '2026-11-21')).toBeLessThan(at(1, '2026-11-21'));
    expect(at(1, '2026-11-21')).toBeLessThan(at(2, '2026-11-20'));
    expect(at(1, '2026-11-20')).toBeLessThan(at(3, '2026-11-20'));
    expect(fileParts('origin_error_logs', days, true, 'newest').map((p) => p.guard)).toEqual([
      timeGuard({ min: 40n, max: 70n }),
      timeGuard({ min: 5n, max: 30n }),
      null,
    ]);
    expect(fileParts('origin_error_logs', days, true, 'oldest').map((p) => p.guard)).toEqual([
      timeGuard({ min: 5n, max: 30n }),
      timeGuard({ min: 40n, max: 70n }),
      null,
    ]);
  });

  it('reads the quarantine whole, without partitions or guard', () => {
    const q: PublishedDay = { zone: 1, day: '2026-11-20', source: 'origin', file: '/h/q/data.parquet' };
    expect(fileParts('quarantined_entries', [q])).toEqual([
      { from: "read_parquet(['/h/q/data.parquet'], hive_partitioning = false)", guard: null },
    ]);
    expect(fileParts('origin_error_logs', [])).toEqual([]);
  });
});
