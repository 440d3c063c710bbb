import { describe, expect, it } from 'vitest';
import {
  lowerBound,
  segmentTime,
  spreadRange,
  spreadTime,
  visiblePrefix,
  type Segment,
  type Spread,
} from '../../src/simulator/layout.js';
import { DAY_MS } from '../../src/time/utc-day.js';

const DAY = Date.parse('2026-11-22T00:00:00Z');
const dayOf = (total: number): Spread => ({ start: DAY, span: DAY_MS, total, timeKey: 12345 });
const baseSegment = (total: number): Segment => ({ id: 0, spread: dayOf(total), first: 0, size: total });

describe('lowerBound', () => {
  it.each([
    [[1, 3, 5, 7], 0, 0],
    [[1, 3, 5, 7], 4, 2],
    [[1, 3, 5, 7], 5, 2],
    [[1, 3, 5, 7], 8, 4],
    [[], 1, 0],
  ])('first index of %j with value >= %i is %i', (values, target, expected) => {
    expect(lowerBound(0, values.length, (i) => values[i]! >= target)).toBe(expected);
  });
});

describe('spreadTime', () => {
  it.each([1, 2, 7, 500, 86_400_000])('keeps %i entries inside the day, in order, one per slot', (total) => {
    const s = dayOf(total);
    const sample =
      total > 10_000
        ? [0, 1, 2, total / 2, total - 2, total - 1]
        : Array.from({ length: total }, (_, i) => i);
    let previous = -Infinity;
    for (const k of sample) {
      const t = spreadTime(s, k);
      expect(Number.isInteger(t)).toBe(true);
      expect(t).toBeGreaterThanOrEqual(DAY + Math.floor((k * DAY_MS) / total));
      expect(t).toBeLessThan(DAY + Math.ceil(((k + 1) * DAY_MS) / total));
      expect(t).toBeGreaterThanOrEqual(previous);
      previous = t;
    }
  });
});

describe('visiblePrefix', () => {
  const seg = baseSegment(24);
  // 24 entries over the day: entry j lies in hour j.
  it.each([
    ['before the day', DAY - 1, 0],
    ['end of hour 0', DAY + 3_599_999, 1],
    ['just before 06:00: hours 0–5', DAY + 6 * 3_600_000 - 1, 6],
    ['end of hour 12', DAY + 12 * 3_600_000 + 3_599_999, 13],
    ['end of day', DAY + DAY_MS - 1, 24],
    ['next day', DAY + DAY_MS + 5, 24],
  ])('%s → %i entries', (_name, at, expected) => {
    expect(visiblePrefix(seg, at)).toBe(expected);
  });

  it('agrees with a linear scan at many instants', () => {
    const big = baseSegment(1000);
    const times = Array.from({ length: 1000 }, (_, i) => segmentTime(big, i));
    for (let at = DAY - 10; at < DAY + DAY_MS; at += 3_333_333) {
      expect(visiblePrefix(big, at)).toBe(times.filter((t) => t <= at).length);
    }
  });

  it('an empty segment shows nothing', () => {
    expect(visiblePrefix(baseSegment(0), DAY + DAY_MS)).toBe(0);
  });
});

describe('spreadRange (spike placement)', () => {
  const H = 3_600_000;
  it.each([
    ['spike inside the day', DAY + 10 * H, DAY + 11 * H, 100, 100],
    ['spike before the day', DAY - 5 * H, DAY - 4 * H, 50, 0],
    ['spike after the day', DAY + DAY_MS, DAY + DAY_MS + H, 50, 0],
    ['spike across midnight: half of it', DAY + 23 * H, DAY + 25 * H, 200, 100],
    ['spike across the previous midnight: half of it', DAY - H, DAY + H, 200, 100],
  ])('%s', (_name, from, to, count, inDay) => {
    const spread: Spread = { start: from, span: to - from, total: count, timeKey: 99 };
    const { first, end } = spreadRange(spread, DAY, DAY + DAY_MS);
    // Allow one entry either way at a boundary: which side of midnight an entry falls depends on its jitter.
    expect(Math.abs(end - first - inDay)).toBeLessThanOrEqual(1);
    for (let k = first; k < end; k++) {
      const t = spreadTime(spread, k);
      expect(t >= Math.max(from, DAY) && t < Math.min(to, DAY + DAY_MS)).toBe(true);
    }
    if (first > 0) expect(spreadTime(spread, first - 1)).toBeLessThan(DAY);
    if (end < count) expect(spreadTime(spread, end)).toBeGreaterThanOrEqual(DAY + DAY_MS);
  });
});
