// Pure: which days of one zone a plan job enqueues.
import { addDays, dayOf, dayRange, type Day } from '../time/utc-day.js';
import type { DayState } from '../store/ledger-types.js';

export interface PlanInput {
  now: number;
  /** Days before today to look at (catch-up). */
  lookbackDays: number;
  /** Ledger state per day, for the days the ledger knows. */
  states: ReadonlyMap<string, DayState>;
}

export interface PlannedDay {
  day: Day;
  reason: 'refresh' | 'catch-up';
}

/**
 * Today is always fetched again (it is still filling in). Each earlier day of the lookback window is
 * fetched unless the ledger shows it complete or expired: that covers finalising yesterday after
 * midnight, days missed while the worker was down (schedulers do not backfill), and failed days.
 * Oldest first, so the day closest to leaving the API's window goes first.
 */
export function planDays(input: PlanInput): PlannedDay[] {
  const today = dayOf(input.now);
  const earlier =
    input.lookbackDays > 0 ? dayRange(addDays(today, -input.lookbackDays), addDays(today, -1)) : [];
  const planned: PlannedDay[] = [];
  for (const day of earlier) {
    const state = input.states.get(day);
    if (state !== 'complete' && state !== 'expired') planned.push({ day, reason: 'catch-up' });
  }
  planned.push({ day: today, reason: 'refresh' });
  return planned;
}
