// The SQL page's choice of chart (assets/console/chart-data.js, pure): which results have one, which
// column is the time and which are the lines, and the points in time order.
import { describe, expect, it } from 'vitest';
import { timeSeries } from '../../assets/console/chart-data.js';

const T0 = Date.parse('2026-11-22T00:00:00Z');
const H = 3_600_000;

describe('timeSeries', () => {
  it.each([
    [
      'ISO hours (the rollup views)',
      ['hour', 'n'],
      [
        { hour: '2026-11-22T01:00:00Z', n: 2 },
        { hour: '2026-11-22T00:00:00Z', n: 5 },
      ],
      'hour',
      {
        n: [
          [T0, 5],
          [T0 + H, 2],
        ],
      },
    ],
    [
      'days (log_date)',
      ['log_date', 'n'],
      [
        { log_date: '2026-11-22', n: 1 },
        { log_date: '2026-11-23', n: 3 },
      ],
      'log_date',
      {
        n: [
          [T0, 1],
          [T0 + 24 * H, 3],
        ],
      },
    ],
    [
      'instants with milliseconds (taken_at)',
      ['taken_at', 'x'],
      [
        { taken_at: '2026-11-22T00:00:00.250Z', x: 1 },
        { taken_at: '2026-11-22T01:00:00.000Z', x: 0 },
      ],
      'taken_at',
      {
        x: [
          [T0 + 250, 1],
          [T0 + H, 0],
        ],
      },
    ],
    [
      'milliseconds in a time-named column',
      ['bucket', 'count'],
      [
        { bucket: T0, count: 4 },
        { bucket: T0 + H, count: 6 },
      ],
      'bucket',
      {
        count: [
          [T0, 4],
          [T0 + H, 6],
        ],
      },
    ],
    [
      'two numeric columns, text left out',
      ['hour', 'rule', 'n', 'm'],
      [
        { hour: '2026-11-22T00:00:00Z', rule: 'a', n: 1, m: 2 },
        { hour: '2026-11-22T01:00:00Z', rule: 'b', n: 3, m: null },
      ],
      'hour',
      {
        n: [
          [T0, 1],
          [T0 + H, 3],
        ],
        m: [[T0, 2]],
      },
    ],
  ])('%s', (_what, columns, rows, time, lines) => {
    const chart = timeSeries(columns, rows);
    expect(chart?.time).toBe(time);
    expect(Object.fromEntries(chart!.series.map((s) => [s.name, s.points]))).toEqual(lines);
  });

  it.each([
    [
      'no time column',
      ['url', 'n'],
      [
        { url: 'a', n: 1 },
        { url: 'b', n: 2 },
      ],
    ],
    [
      'no numeric column',
      ['hour', 'rule'],
      [
        { hour: '2026-11-22T00:00:00Z', rule: 'a' },
        { hour: '2026-11-22T01:00:00Z', rule: 'b' },
      ],
    ],
    ['one row', ['hour', 'n'], [{ hour: '2026-11-22T00:00:00Z', n: 1 }]],
    [
      'a time-like text among others',
      ['hour', 'n'],
      [
        { hour: '2026-11-22T00:00:00Z', n: 1 },
        { hour: '<script>', n: 2 },
      ],
    ],
    [
      'small numbers in a time-named column',
      ['hour', 'n'],
      [
        { hour: 3, n: 1 },
        { hour: 4, n: 2 },
      ],
    ],
    [
      'milliseconds under a name that is not a time',
      ['zone', 'n'],
      [
        { zone: T0, n: 1 },
        { zone: T0 + H, n: 2 },
      ],
    ],
    [
      'numbers as text',
      ['hour', 'n'],
      [
        { hour: '2026-11-22T00:00:00Z', n: '1' },
        { hour: '2026-11-22T01:00:00Z', n: '2' },
      ],
    ],
  ])('none for %s', (_what, columns, rows) => {
    expect(timeSeries(columns, rows)).toBe(null);
  });

  it('gives the extent of both axes, zero included', () => {
    const chart = timeSeries(
      ['hour', 'a', 'b'],
      [
        { hour: '2026-11-22T00:00:00Z', a: 5, b: 7 },
        { hour: '2026-11-22T02:00:00Z', a: 9, b: 6 },
      ],
    );
    expect(chart).toMatchObject({ from: T0, to: T0 + 2 * H, min: 0, max: 9 });
    expect(
      timeSeries(
        ['hour', 'a'],
        [
          { hour: '2026-11-22T00:00:00Z', a: -2 },
          { hour: '2026-11-22T01:00:00Z', a: 3 },
        ],
      ),
    ).toMatchObject({ min: -2, max: 3 });
  });
});
