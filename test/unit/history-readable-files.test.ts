// Which files a reader reads (published-days.ts readableFiles): each zone-day's live parts below the
// watermark, and a zone-day whose parts overlap set apart as unreadable, with the timestamps its parts
// record, instead of failing every other day of the table.
import { describe, expect, it } from 'vitest';
import { parsePart, type Part } from '../../src/history/parts.js';
import { readableFiles, type DayParts } from '../../src/history/published-days.js';

const part = (name: string): Part => parsePart(name)!;
const day = (d: string, names: string[]): DayParts => ({
  zone: 7,
  day: d,
  dir: `/h/origin_error_logs/zone=7/day=${d}`,
  parts: names.map(part),
  legacy: false,
});

describe('readableFiles', () => {
  const good = day('2026-11-16', ['part-0-4_10_20.parquet', 'part-0-2_10_15.parquet']);
  const overlapping = day('2026-11-17', [
    'part-0-3_100_200.parquet',
    'part-1-4_150_250.parquet',
    // Above the watermark: not counted in the day's timestamps.
    'part-4-9_0_999.parquet',
  ]);
  const later = day('2026-11-18', ['part-2-4_300_400.parquet']);

  it('reads the widest part of each day and sets a day whose parts overlap apart', () => {
    expect(readableFiles([good, overlapping, later], 4n)).toEqual({
      files: [
        {
          zone: 7,
          day: '2026-11-16',
          file: '/h/origin_error_logs/zone=7/day=2026-11-16/part-0-4_10_20.parquet',
          timestamps: { min: 10n, max: 20n },
        },
        {
          zone: 7,
          day: '2026-11-18',
          file: '/h/origin_error_logs/zone=7/day=2026-11-18/part-2-4_300_400.parquet',
          timestamps: { min: 300n, max: 400n },
        },
      ],
      unreadable: [
        {
          zone: 7,
          day: '2026-11-17',
          reason:
            'part-0-3_100_200.parquet and part-1-4_150_250.parquet overlap without one covering the other',
          timestamps: { min: 100n, max: 250n },
        },
      ],
    });
  });

  it('gives an unreadable day no timestamps when one of its parts records none', () => {
    const quarantine: DayParts = {
      ...day('2026-11-17', ['part-0-3.parquet', 'part-1-4.parquet']),
      source: 'origin',
    };
    expect(readableFiles([quarantine], 4n).unreadable).toEqual([
      {
        zone: 7,
        day: '2026-11-17',
        source: 'origin',
        reason: 'part-0-3.parquet and part-1-4.parquet overlap without one covering the other',
      },
    ]);
  });

  it('does not look at the parts of a day below a watermark that leaves them overlapping above it', () => {
    // Below 3 only part-0-3 counts: the day reads.
    expect(readableFiles([overlapping], 3n)).toMatchObject({
      files: [{ day: '2026-11-17', timestamps: { min: 100n, max: 200n } }],
      unreadable: [],
    });
  });
});
