import { describe, expect, it } from 'vitest';
import { counterDeltas } from '../../src/report/counter-deltas.js';
import { denseHistogram, isoHour, reportWindow } from '../../src/report/window.js';
import type { Day } from '../../src/time/utc-day.js';

const now = Date.parse('2024-10-15T13:45:00.000Z');
const d = (s: string) => s as Day;

describe('reportWindow', () => {
  it.each<[string, Day | undefined, Day | undefined, string, string, number, 'hour' | 'day']>([
    [
      'default: the last 7 UTC days including today',
      undefined,
      undefined,
      '2024-10-09',
      '2024-10-15',
      7,
      'day',
    ],
    ['only --to: the 7 days ending there', undefined, d('2024-10-01'), '2024-09-25', '2024-10-01', 7, 'day'],
    ['only --from: up to today', d('2024-10-14'), undefined, '2024-10-14', '2024-10-15', 2, 'hour'],
    ['one day', d('2024-10-15'), d('2024-10-15'), '2024-10-15', '2024-10-15', 1, 'hour'],
    ['3 days is still hourly', d('2024-10-13'), d('2024-10-15'), '2024-10-13', '2024-10-15', 3, 'hour'],
    ['4 days is daily', d('2024-10-12'), d('2024-10-15'), '2024-10-12', '2024-10-15', 4, 'day'],
    ['across a leap day', d('2024-02-28'), d('2024-03-01'), '2024-02-28', '2024-03-01', 3, 'hour'],
  ])('%s', (_name, from, to, eFrom, eTo, days, bucket) => {
    const w = reportWindow({ from, to, now });
    expect(w).toMatchObject({ from: eFrom, to: eTo, days, bucket });
    expect(w.startMs).toBe(Date.parse(`${eFrom}T00:00:00.000Z`));
    expect(w.endMs - w.startMs).toBe(days * 86_400_000);
    expect(w.bucketMs).toBe(bucket === 'hour' ? 3_600_000 : 86_400_000);
  });

  it('refuses a backwards range, naming both ends', () => {
    expect(() => reportWindow({ from: d('2024-10-16'), to: d('2024-10-10'), now })).toThrow(
      '--from 2024-10-16 is after --to 2024-10-10',
    );
    expect(() => reportWindow({ from: d('2024-10-20'), now })).toThrow('--to 2024-10-15 (today)');
  });
});

describe('denseHistogram', () => {
  const w = reportWindow({ from: d('2024-10-15'), to: d('2024-10-15'), now });
  const at = (iso: string) => Date.parse(iso);

  it('every hour of the window, empty ones as 0', () => {
    const h = denseHistogram(w, [
      { start: at('2024-10-15T00:00:00Z'), count: 3 },
      { start: at('2024-10-15T23:00:00Z'), count: 5 },
    ]);
    expect(h).toHaveLength(24);
    expect(h[0]).toEqual({ start: '2024-10-15T00:00:00Z', count: 3 });
    expect(h[1]).toEqual({ start: '2024-10-15T01:00:00Z', count: 0 });
    expect(h[23]).toEqual({ start: '2024-10-15T23:00:00Z', count: 5 });
  });

  it('ignores rows outside the window and adds duplicates', () => {
    const h = denseHistogram(w, [
      { start: at('2024-10-14T23:00:00Z'), count: 100 },
      { start: at('2024-10-16T00:00:00Z'), count: 100 },
      { start: at('2024-10-15T05:00:00Z'), count: 1 },
      { start: at('2024-10-15T05:00:00Z'), count: 2 },
    ]);
    expect(h.reduce((s, b) => s + b.count, 0)).toBe(3);
    expect(h[5]!.count).toBe(3);
  });

  it('daily buckets over a long range', () => {
    const year = reportWindow({ from: d('2024-01-01'), to: d('2024-12-31'), now });
    const h = denseHistogram(year, []);
    expect(h).toHaveLength(366);
    expect(h.at(-1)).toEqual({ start: '2024-12-31T00:00:00Z', count: 0 });
  });

  it('isoHour drops the milliseconds', () => {
    expect(isoHour(at('2024-10-15T13:00:00.000Z'))).toBe('2024-10-15T13:00:00Z');
  });
});

describe('counterDeltas', () => {
  it.each<[string, Array<number | null>, Array<[number | null, boolean]>]>([
    [
      'growth',
      [10, 15, 15, 40],
      [
        [null, false],
        [5, false],
        [0, false],
        [25, false],
      ],
    ],
    [
      'a reset is not a negative spike',
      [100, 120, 7, 10],
      [
        [null, false],
        [20, false],
        [7, true],
        [3, false],
      ],
    ],
    [
      'a reset to zero',
      [5, 0],
      [
        [null, false],
        [0, true],
      ],
    ],
    [
      'missing values',
      [1, null, 4],
      [
        [null, false],
        [null, false],
        [null, false],
      ],
    ],
    ['one snapshot', [3], [[null, false]]],
    ['none', [], []],
  ])('%s', (_name, values, expected) => {
    expect(counterDeltas(values)).toEqual(expected.map(([value, reset]) => ({ value, reset })));
  });
});
