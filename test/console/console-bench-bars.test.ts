// The console bench's judgement (bench/console-bars.ts): the nearest-rank p95 of 20 loads is the 19th
// fastest, a bar is met at its limit and missed just above it, and a users loop with failed requests
// never passes the memory bar.
import { describe, expect, it } from 'vitest';
import { latencyBar, percentile, rssBar } from '../../bench/console-bars.js';

/** 1, 2, … 20 ms, shuffled: the order given must not matter. */
const TWENTY = [7, 20, 3, 14, 1, 19, 11, 5, 16, 9, 2, 18, 13, 6, 10, 17, 4, 15, 8, 12];

describe('percentile (nearest rank)', () => {
  it.each([
    [TWENTY, 95, 19],
    [TWENTY, 50, 10],
    [TWENTY, 100, 20],
    [TWENTY, 5, 1],
    [[42], 95, 42],
    [[3, 1, 2], 95, 3],
  ])('%j at p%d is %d', (xs, p, want) => {
    expect(percentile(xs, p)).toBe(want);
  });

  it('refuses no values and a p outside (0, 100]', () => {
    expect(() => percentile([], 95)).toThrow(RangeError);
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('the bars', () => {
  const scaled = (k: number) => TWENTY.map((x) => x * k);
  it.each([
    // p95 of TWENTY×k is 19k ms.
    ['overview', scaled(300 / 19), 'met'],
    ['overview', scaled(301 / 19), 'NOT MET'],
    ['explorer', scaled(300 / 19), 'met'],
    ['explorer', scaled(301 / 19), 'NOT MET'],
    ['facets', scaled(500 / 19), 'met'],
    ['facets', scaled(501 / 19), 'NOT MET'],
    ['dashboard', scaled(500 / 19), 'met'],
    ['dashboard', scaled(501 / 19), 'NOT MET'],
  ] as const)('%s with p95 %#: %s', (name, times, verdict) => {
    const bar = latencyBar(name, times);
    expect(bar.verdict).toBe(verdict);
    expect(bar.value).toBeCloseTo(times[1]! * (19 / 20), 6);
    expect(bar.figure).toMatch(/^\d+\.\d ms \(median \d+\.\d ms, min \d+\.\d ms, max \d+\.\d ms\)$/);
  });

  it('names how a load was timed, with the same limit and verdict', () => {
    const bar = latencyBar('facets', scaled(501 / 19), 'in the browser');
    expect(bar.bar).toBe('facets (in the browser): p95 of 20 loads ≤ 500 ms');
    expect(bar.verdict).toBe('NOT MET');
    expect(latencyBar('facets', scaled(1)).bar).toBe('facets: p95 of 20 loads ≤ 500 ms');
  });

  it.each([
    [400, 0, 100, 'met'],
    [401, 0, 100, 'NOT MET'],
    [120, 1, 100, 'NOT MET'],
    [120, 0, 0, 'NOT MET'],
  ])('peak %d MiB, %d failed of %d requests: %s', (peak, errors, requests, verdict) => {
    const bar = rssBar(peak, { users: 10, seconds: 60, requests, errors });
    expect(bar.verdict).toBe(verdict);
    expect(bar.figure).toBe(`${peak} MiB (VmHWM; ${requests} requests, ${errors} failed)`);
  });
});
