// Pure: judge a spike rule for one zone from window counts and the archive's coverage.
import { DAY_MS } from '../time/utc-day.js';
import { coverageFrontier, isCovered, type Coverage } from './coverage.js';

export interface SpikeParams {
  windowMs: number;
  reference: 'previous' | 'same-hour';
  referenceWindows: number;
  factor: number;
  min: number;
}

export interface Window {
  from: number;
  to: number;
}

export type SpikeVerdict =
  | { kind: 'unknown'; reason: string; window?: Window }
  | {
      kind: 'judged';
      /** True: the count is over the threshold; false: under it on a complete window. */
      firing: boolean;
      /** The window is only partly archived; it can fire (counts only grow) but not resolve. */
      partial: boolean;
      window: Window;
      count: number;
      /** Mean count of the covered reference windows. */
      reference: number;
      referenceWindowsUsed: number;
      threshold: number;
    };

/** The windows a spike is compared against, newest first. */
export function referenceWindows(current: Window, params: SpikeParams): Window[] {
  const step = params.reference === 'same-hour' ? DAY_MS : params.windowMs;
  return Array.from({ length: params.referenceWindows }, (_, i) => ({
    from: current.from - (i + 1) * step,
    to: current.to - (i + 1) * step,
  }));
}

/**
 * Every window judgeSpike may count for these arguments (a superset), so that their counts can be read
 * from the archive before the judgement, which stays synchronous and pure.
 */
export function windowsToCount(params: SpikeParams, coverage: Coverage, now: number): Window[] {
  const frontier = coverageFrontier(coverage);
  if (frontier === null) return [];
  const edge = Math.min(frontier, now);
  const partialFrom = edge - (edge % params.windowMs);
  const judged = [{ from: partialFrom - params.windowMs, to: partialFrom }];
  if (partialFrom < edge) judged.push({ from: partialFrom, to: partialFrom + params.windowMs });
  return judged.flatMap((w) => [
    w,
    ...referenceWindows(w, params).filter((r) => isCovered(coverage, r.from, r.to)),
  ]);
}

/**
 * Two windows are looked at, aligned to the window length:
 * - the window still filling in (it holds the archive's coverage frontier): it can fire as soon as it is
 *   over the threshold, since counts only grow, but it can never resolve;
 * - otherwise the latest complete window decides, firing or not (this is how an alert resolves: one
 *   full window under the threshold).
 * Not enough data (nothing archived, the window not archived from its start, or no reference window
 * archived completely) gives `unknown`: an empty history never turns the first errors into a spike.
 * Threshold = max(min, factor × mean count of the archived reference windows).
 */
export function judgeSpike(
  params: SpikeParams,
  coverage: Coverage,
  count: (w: Window) => number,
  now: number,
): SpikeVerdict {
  const frontier = coverageFrontier(coverage);
  if (frontier === null) return { kind: 'unknown', reason: 'nothing archived yet for this zone' };
  const edge = Math.min(frontier, now);
  const partialFrom = edge - (edge % params.windowMs);
  if (partialFrom < edge) {
    const partial = judgeWindow(
      params,
      coverage,
      count,
      { from: partialFrom, to: partialFrom + params.windowMs },
      edge,
    );
    if (partial.kind === 'judged' && partial.firing) return partial;
  }
  return judgeWindow(params, coverage, count, { from: partialFrom - params.windowMs, to: partialFrom }, edge);
}

function judgeWindow(
  params: SpikeParams,
  coverage: Coverage,
  count: (w: Window) => number,
  window: Window,
  edge: number,
): SpikeVerdict {
  const partial = edge < window.to;
  if (!isCovered(coverage, window.from, Math.min(edge, window.to))) {
    return { kind: 'unknown', reason: 'the window is not archived from its start', window };
  }
  const refs = referenceWindows(window, params).filter((w) => isCovered(coverage, w.from, w.to));
  if (refs.length === 0) {
    return { kind: 'unknown', reason: 'no reference window is archived completely yet', window };
  }
  const reference = refs.reduce((sum, w) => sum + count(w), 0) / refs.length;
  const threshold = Math.max(params.min, params.factor * reference);
  const n = count(window);
  return {
    kind: 'judged',
    firing: n >= threshold,
    partial,
    window,
    count: n,
    reference,
    referenceWindowsUsed: refs.length,
    threshold,
  };
}
