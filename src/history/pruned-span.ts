// The days whose entries left the store for the history (history_days.pruned_at): what a reader of the
// store alone (`edgelog query --engine store`) does not see.
import type { QueryStore } from '../store/store.js';

export interface PrunedSpan {
  days: number;
  from: string;
  to: string;
}

/** The pruned days' count, first and last day (one row). */
export const PRUNED_SPAN_SQL = `SELECT count(*), min(log_date), max(log_date) FROM history_days WHERE pruned_at IS NOT NULL`;

/** The pruned days' count and range, or null when none is pruned. */
export function prunedSpan(store: QueryStore): Promise<PrunedSpan | null> {
  return store.readOnly(PRUNED_SPAN_SQL, { timeoutMs: 10_000 }, async (cursor) => {
    const [row] = await cursor.next(1);
    return prunedSpanOf(row);
  });
}

/** Pure: the span of PRUNED_SPAN_SQL's row; null when no day is pruned. */
export function prunedSpanOf(row: readonly unknown[] | undefined): PrunedSpan | null {
  const days = Number(row?.[0] ?? 0);
  if (!row || days === 0) return null;
  return { days, from: String(row[1]), to: String(row[2]) };
}
