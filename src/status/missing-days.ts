// Pure: the zone-days an operator expects in the archive and the ledger has never heard of: every
// configured zone × every day of its lookback (today included) without a ledger row. A day with a row,
// whatever its state, is not missing (status shows its state); one without was never planned or fetched:
// Redis lost its jobs, the worker was down, or the zone was added after the day.
import { addDays, dayOf, dayRange, type Day } from '../time/utc-day.js';
import { forgottenAt } from './zone-health.js';

export interface MissingDay {
  source: 'origin' | 'shield';
  zone: number;
  day: Day;
  /** When the API stops serving the day (ms), or null when not known (origin logs publish no window). */
  forgottenAt: number | null;
}

/** Oldest first within each zone, zones in the order given. */
export function missingDays(
  rows: ReadonlyArray<{ source: string; zone_id: number; log_date: string }>,
  zones: ReadonlyArray<{ source: 'origin' | 'shield'; zone: number; lookbackDays: number }>,
  now: number,
): MissingDay[] {
  const known = new Set(rows.map((r) => `${r.source} ${r.zone_id} ${r.log_date}`));
  const today = dayOf(now);
  const missing: MissingDay[] = [];
  for (const { source, zone, lookbackDays } of zones) {
    for (const day of dayRange(addDays(today, -lookbackDays), today)) {
      if (!known.has(`${source} ${zone} ${day}`)) {
        missing.push({ source, zone, day, forgottenAt: forgottenAt(source, day) });
      }
    }
  }
  return missing;
}
