// Which clock the simulator keeps. The CLI always reads the real one (it has no clock option), so:
// `fixed` sets the simulator at noon UTC of the real yesterday: the days before it are whole and over by
// both clocks, and nothing moves while a scenario runs (sync scenarios). `real` shares the real clock
// (`edgelog run` plans from it); a scenario then keeps clear of midnight, when "yesterday" changes.
import { addDays, DAY_MS, dayOf, dayStartMs, type Day } from '../../../src/time/utc-day.js';
import { sleep } from './wait.js';

export type ClockMode = 'fixed' | 'real';

export function simulatorNow(mode: ClockMode, realNow = Date.now()): () => number {
  if (mode === 'real') return Date.now;
  const fixed = dayStartMs(dayOf(realNow)) - DAY_MS / 2;
  return () => fixed;
}

/** The `count` whole days before the simulator's today, oldest first (within the Shield window for ≤ 2). */
export function pastDays(now: number, count: number): Day[] {
  const today = dayOf(now);
  return Array.from({ length: count }, (_, i) => addDays(today, i - count));
}

/**
 * With the real clock: when fewer than `budgetMs` remain before the next UTC midnight, waits until just
 * after it, so that "today" and "yesterday" cannot change under a scenario. Returns the time waited.
 */
export async function clearOfMidnight(budgetMs: number, now = Date.now): Promise<number> {
  const left = dayStartMs(addDays(dayOf(now()), 1)) - now();
  if (left >= budgetMs) return 0;
  await sleep(left + 5_000);
  return left + 5_000;
}
