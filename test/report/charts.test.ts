import { describe, expect, it } from 'vitest';
import { bar, barChart, downsample, sparkline } from '../../src/report/charts.js';

describe('bar', () => {
  it.each([
    ['the maximum fills the width', 10, 10, 4, '████'],
    ['half', 5, 10, 4, '██'],
    ['an eighth of a cell', 1, 32, 4, '▏'],
    ['three eighths', 3, 32, 4, '▍'],
    ['one cell and a half', 3, 8, 4, '█▌'],
    ['seven eighths', 7, 8, 1, '▉'],
    ['zero is nothing', 0, 10, 4, ''],
    ['all zeros (max 0) is nothing', 0, 0, 4, ''],
    ['a tiny positive value still shows', 1, 1e12, 40, '▏'],
    ['a huge range: the max', 1e12, 1e12, 3, '███'],
    ['negative counts as zero', -5, 10, 4, ''],
    ['NaN counts as zero', NaN, 10, 4, ''],
    ['never beyond the width', 20, 10, 4, '████'],
    ['zero width', 10, 10, 0, ''],
    ['fractional width is floored', 10, 10, 2.9, '██'],
  ])('%s', (_name, value, max, width, expected) => {
    expect(bar(value, max, width)).toBe(expected);
  });
});

describe('barChart', () => {
  it('labels, bars and right-aligned counts in columns', () => {
    expect(
      barChart(
        [
          { label: 'mon', value: 1000 },
          { label: 'tuesday', value: 250 },
          { label: 'wed', value: 0 },
        ],
        { width: 30 },
      ),
    ).toEqual([
      // 30 columns: label 7, " │" 2, bar 15, " " 1, count 5; 250/1000 of 15 cells = 3¾ cells.
      'mon     │███████████████ 1,000',
      'tuesday │███▊              250',
      'wed     │                    0',
    ]);
  });

  it('all zeros: no bars, counts still shown', () => {
    const lines = barChart(
      [
        { label: 'a', value: 0 },
        { label: 'b', value: 0 },
      ],
      { width: 20 },
    );
    expect(lines).toEqual([`a │${' '.repeat(15)} 0`, `b │${' '.repeat(15)} 0`]);
  });

  it('one bucket fills the bar', () => {
    expect(barChart([{ label: 'x', value: 7 }], { width: 12 })).toEqual(['x │███████ 7']);
  });

  it('no rows, no lines', () => {
    expect(barChart([], { width: 80 })).toEqual([]);
  });

  it.each([40, 60, 80, 120])('every line is exactly %i columns wide', (width) => {
    const rows = [
      { label: '2024-10-15 00:00', value: 123_456_789 },
      { label: '2024-10-15 01:00', value: 1 },
      { label: '2024-10-15 02:00', value: 0 },
      { label: '2024-10-15 03:00', value: 61_728_394 },
    ];
    const lines = barChart(rows, { width });
    for (const line of lines) expect([...line].length).toBe(width);
    // The small value is visible, the half value is half as long as the maximum.
    expect(lines[1]).toContain('▏');
    const cells = (l: string) => [...l].filter((c) => '▏▎▍▌▋▊▉█'.includes(c)).length;
    expect(Math.abs(cells(lines[3]!) - cells(lines[0]!) / 2)).toBeLessThanOrEqual(1);
  });

  it('a width too small for the labels still gets a one-cell bar', () => {
    expect(barChart([{ label: 'a long label', value: 5 }], { width: 5 })).toEqual(['a long label │█ 5']);
  });

  it('takes a custom count format', () => {
    expect(barChart([{ label: 'a', value: 0.5 }], { width: 12, format: (v) => `${v * 100}%` })).toEqual([
      'a │█████ 50%',
    ]);
  });
});

describe('sparkline', () => {
  it.each<[string, Array<number | null>, number, string]>([
    ['ramp 1..8', [1, 2, 3, 4, 5, 6, 7, 8], Infinity, '▁▂▃▄▅▆▇█'],
    ['zeros are blank', [0, 4, 0, 8], Infinity, ' ▄ █'],
    ['all zeros', [0, 0, 0], Infinity, '   '],
    ['nulls are blank', [null, 8, null], Infinity, ' █ '],
    ['one value', [5], Infinity, '█'],
    ['empty', [], Infinity, ''],
    ['huge range: tiny values still show', [1, 1e12], Infinity, '▁█'],
    ['negative counts as zero', [-3, 3], Infinity, ' █'],
    ['downsampled to the width, peaks kept', [1, 8, 1, 1, 1, 1, 4, 1], 4, '█▁▁▄'],
  ])('%s', (_name, values, width, expected) => {
    expect(sparkline(values, width)).toBe(expected);
  });

  it('never longer than the width', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i);
    for (const width of [1, 7, 60, 999, 1000, 5000]) {
      expect(sparkline(values, width).length).toBe(Math.min(width, 1000));
    }
  });
});

describe('downsample', () => {
  it.each<[Array<number | null>, number, Array<number | null>]>([
    [[1, 2, 3], 5, [1, 2, 3]],
    [[1, 9, 2, 3], 2, [9, 3]],
    [[1, 2, 3, 4, 5], 2, [2, 5]],
    [[null, null, 2, null], 2, [null, 2]],
    [[5, 6], 0, [6]],
  ])('%j to %i → %j', (values, width, expected) => {
    expect(downsample(values, width)).toEqual(expected);
  });
});
