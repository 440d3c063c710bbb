// Pure: which window a new-term rule judges for a zone, and its verdict. As spikes, only a window the
// archive holds completely is judged — and here its whole lookback too: a value "new" against days the
// archive never fetched would only be new to edgelog, so an archive younger than the lookback judges
// nothing (`unknown`, saying so) rather than calling every value new.
import { coverageFrontier, isCovered, type Coverage } from './coverage.js';
import type { Window } from './spike.js';
import { safeText } from '../format/terminal-text.js';

export interface NewTermParams {
  windowMs: number;
  lookbackMs: number;
}

export type NewTermPlan =
  | { kind: 'unknown'; reason: string; window?: Window }
  | { kind: 'ready'; window: Window; lookbackFrom: number };

const iso = (ms: number) => new Date(ms).toISOString();

/** The latest complete window (aligned to its length) before the archive's frontier, and its lookback. */
export function planNewTerm(params: NewTermParams, coverage: Coverage, now: number): NewTermPlan {
  const frontier = coverageFrontier(coverage);
  if (frontier === null) return { kind: 'unknown', reason: 'nothing archived yet for this zone' };
  const edge = Math.min(frontier, now);
  const to = edge - (edge % params.windowMs);
  const window = { from: to - params.windowMs, to };
  if (!isCovered(coverage, window.from, window.to))
    return { kind: 'unknown', reason: 'the window is not archived completely', window };
  const lookbackFrom = window.from - params.lookbackMs;
  if (!isCovered(coverage, lookbackFrom, window.from)) {
    return {
      kind: 'unknown',
      reason: `the lookback (from ${iso(lookbackFrom)}) is not archived completely yet`,
      window,
    };
  }
  return { kind: 'ready', window, lookbackFrom };
}

export interface NewTermVerdict {
  firing: boolean;
  window: Window;
  /** New values in all. */
  total: number;
  /** The most frequent of them (at most the cap asked of the store). */
  values: ReadonlyArray<{ value: string; count: number }>;
}

export function judgeNewTerm(
  plan: Extract<NewTermPlan, { kind: 'ready' }>,
  found: { total: number; values: ReadonlyArray<{ value: string; count: number }> },
): NewTermVerdict {
  return { firing: found.total > 0, window: plan.window, total: found.total, values: found.values };
}

/** New values a notice names at most. */
export const NAMED_VALUES = 10;

/**
 * The new values as a notice names them: quoted, each escaped for a terminal (an archived value is
 * written by whoever sent the request), the most frequent first, `and N more` past the cap.
 */
export function describeNewValues(
  values: ReadonlyArray<{ value: string; count: number }>,
  total: number,
  cap = NAMED_VALUES,
): string {
  const shown = values.slice(0, cap).map((v) => `"${safeText(v.value)}" (${v.count})`);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
