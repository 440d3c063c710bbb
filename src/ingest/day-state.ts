// Pure: when a finished pass makes a day complete, and how much of it the archive covers.
import { dayEndMs, type Day } from '../time/utc-day.js';

/**
 * A pass that began at least `finalizeDelayMs` after the day ended saw everything the API will ever
 * hold for it: the day is complete. An earlier pass (today, or yesterday just after midnight) leaves it
 * partial, to be fetched again.
 */
export function finishedState(
  day: Day,
  passStartedAt: number,
  finalizeDelayMs: number,
): 'complete' | 'partial' {
  return passStartedAt >= dayEndMs(day) + finalizeDelayMs ? 'complete' : 'partial';
}

/** Everything the API held before this instant is archived: the pass start, at most the day's end. */
export function coveredUntil(day: Day, passStartedAt: number): number {
  return Math.min(passStartedAt, dayEndMs(day));
}
