// Pure: the account `edgelog demo` simulates: its volume, its odd entries, and a burst of 503s in zone
// 101 for the demo's sample alert rule to catch. Its data is fixed for the UTC day the demo runs on: the
// burst spans that whole day (not the minutes before the run, which moved with each run and so made new
// entries, some in days already ended, on every run), so a second run is served the same entries as the
// first and only those logged since: it adds nothing to what the first archived.
import { dayOf, dayStartMs, DAY_MS } from '../time/utc-day.js';
import type { SimulatorOptions } from './options.js';

/**
 * The burst's entries per day, per entry of the zone's own: today's hours hold four times the 5xx of the
 * same hours the days before, over the rule's factor of three (docs/ALERTS.md, same-hour).
 */
const BURST_PER_ENTRY = 3;

/** The simulator's options for a demo of `entries` entries per zone and day, run at `now`. */
export function demoAccount(entries: number, now: number): SimulatorOptions {
  const today = dayStartMs(dayOf(now));
  return {
    entriesPerDay: entries,
    pageSize: 500,
    malformedRate: 0.002,
    spikes: [
      {
        source: 'origin',
        zone: 101,
        from: today,
        to: today + DAY_MS,
        count: BURST_PER_ENTRY * entries,
        statusCode: 503,
      },
    ],
  };
}
