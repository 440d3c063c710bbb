// Pure: which past days of a zone are at risk of loss. A day should be complete once a pass has run at
// least `finalizeDelay` after it ended, and one comes every `refreshEvery`; a day past that point that is
// still not complete, and that the API still serves (not `expired`), is lost if it leaves the window
// (the lookback the planner covers) before a pass completes it.
import type { DayState } from '../store/ledger-types.js';
import { addDays, dayEndMs, dayOf, dayRange, type Day } from '../time/utc-day.js';

export interface AtRiskInput {
  now: number;
  /** Days before today the planner fetches (schedule.originLookbackDays / shieldLookbackDays). */
  lookbackDays: number;
  finalizeDelayMs: number;
  refreshEveryMs: number;
  /** The zone's ledger state per day; a day it does not hold was never fetched. */
  states: ReadonlyMap<string, DayState>;
}

export function daysAtRisk(input: AtRiskInput): Day[] {
  const today = dayOf(input.now);
  if (input.lookbackDays < 1) return [];
  const window = dayRange(addDays(today, -input.lookbackDays), addDays(today, -1));
  return window.filter((day) => {
    const state = input.states.get(day);
    if (state === 'complete' || state === 'expired') return false;
    return input.now >= dayEndMs(day) + input.finalizeDelayMs + input.refreshEveryMs;
  });
}
