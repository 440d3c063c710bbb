// Pure: which stretches of time the archive holds completely, from the ledger's per-day coverage.
import { dayEndMs, dayOf, dayStartMs } from '../time/utc-day.js';

/** Per UTC day (YYYY-MM-DD), the instant before which everything the API held is archived. */
export type Coverage = ReadonlyMap<string, number>;

/** True when every day overlapping [from, to) is archived up to `to` (or to the day's end). */
export function isCovered(coverage: Coverage, from: number, to: number): boolean {
  if (to <= from) return true;
  for (let start = dayStartMs(dayOf(from)); start < to; start += 86_400_000) {
    const day = dayOf(start);
    const covered = coverage.get(day);
    if (covered === undefined || covered < Math.min(to, dayEndMs(day))) return false;
  }
  return true;
}

/** The latest instant the archive covers for this zone, or null when nothing is covered yet. */
export function coverageFrontier(coverage: Coverage): number | null {
  let frontier: number | null = null;
  for (const until of coverage.values()) if (frontier === null || until > frontier) frontier = until;
  return frontier;
}
