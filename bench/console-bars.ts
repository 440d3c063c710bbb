// The bars of issue 31's "Fast" section (bench/console.ts), each with its verdict and the absolute
// figures it comes from. Pure: the bench passes its timings and its memory figure in.
import type { Bar } from './bars.js';

/** The issue's bars: p95 over 20 loads (ms) per page load, and the server's peak RSS (MiB) under load. */
export const CONSOLE_BARS = {
  overview: 300,
  explorer: 300,
  facets: 500,
  dashboard: 500,
  peakRssMib: 400,
} as const;

export type LoadName = 'overview' | 'explorer' | 'facets' | 'dashboard';

/** The sizes the bars are set at: a 10M-row history and a 1,000,000-entry hot day. */
export const BAR_SIZES = { historyRows: 10_000_000, hotEntries: 1_000_000 } as const;

/**
 * Nearest rank: the smallest value with at least p% of the values at or below it (p95 of 20 loads is
 * the 19th fastest; no interpolation, so the figure is one a load really took).
 */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new RangeError('percentile of no values');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile: p in (0, 100], not ${p}`);
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** A page load's bar: its p95 against the limit, with the median, the fastest and slowest besides. */
export function latencyBar(
  name: LoadName,
  times: readonly number[],
  /** How it was timed, when not by the bench's HTTP client (e.g. "in the browser"). */
  how?: string,
): Bar & { value: number } {
  const limit = CONSOLE_BARS[name];
  const p95 = percentile(times, 95);
  return {
    bar: `${name}${how === undefined ? '' : ` (${how})`}: p95 of ${times.length} loads ≤ ${limit} ms`,
    figure: `${ms(p95)} (median ${ms(percentile(times, 50))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`,
    verdict: p95 <= limit ? 'met' : 'NOT MET',
    value: p95,
  };
}

/** The server's peak RSS (VmHWM) with `users` concurrent users against the limit. */
export function rssBar(
  peakMib: number,
  load: { users: number; seconds: number; requests: number; errors: number },
): Bar & { value: number } {
  const limit = CONSOLE_BARS.peakRssMib;
  // A loop whose requests failed measured less work than it says: never a pass.
  const ok = peakMib <= limit && load.errors === 0 && load.requests > 0;
  return {
    bar: `server peak RSS, ${load.users} users for ${load.seconds} s ≤ ${limit} MiB`,
    figure: `${peakMib} MiB (VmHWM; ${load.requests} requests, ${load.errors} failed)`,
    verdict: ok ? 'met' : 'NOT MET',
    value: peakMib,
  };
}
