// Pure: what an on-call engineer asks first about each zone, from its ledger rows: how fresh is the
// archive, which day is the oldest not yet complete, and how long until the API forgets that day.
import { addDays, dayOf, dayStartMs, type Day } from '../time/utc-day.js';

/** Shield keeps today and the two days before (API-NOTES: 72 hours); a day is gone at the start of D+3. */
export const SHIELD_WINDOW_DAYS = 2;

export interface HealthRow {
  source: 'origin' | 'shield';
  zone_id: number;
  log_date: string;
  state: string;
  finished_at: number | null;
  last_error: string | null;
  updated_at: number;
  archived_entries: number;
  quarantined_entries: number;
}

export interface ZoneHealth {
  source: 'origin' | 'shield';
  zone: number;
  /** Newest entry archived (ms), the freshness of the archive: read from the entries themselves. */
  newestEntry: number | null;
  /** How far the newest entry is behind `now` (ms). */
  lagMs: number | null;
  /** Last time a pass reached the end of a day's data (ms). */
  lastSuccess: number | null;
  lastCompleteDay: string | null;
  /** The oldest day of the lookback (or older, still served) that is not complete, with its state. */
  oldestOpen: { day: string; state: string } | null;
  /** When the API stops serving `oldestOpen` (ms); null when not known (origin logs publish no window). */
  forgottenAt: number | null;
  archived: number;
  quarantined: number;
  /** The most recent error recorded for one of its days, and when. */
  lastError: { day: string; error: string; at: number } | null;
}

/** Start of the UTC day on which the API no longer serves `day`, or null when it is not known. */
export function forgottenAt(source: 'origin' | 'shield', day: string): number | null {
  return source === 'shield' ? dayStartMs(addDays(day as Day, SHIELD_WINDOW_DAYS + 1)) : null;
}

/**
 * One summary per configured (source, zone), plus any zone the ledger knows that is no longer
 * configured. `lookbackDays` bounds which open days matter (older ones are no longer planned).
 * `newestOf` gives a zone's newest archived entry (ms), or null when it has none: the ledger's
 * `last_ts` is the last pass's, which a pass that failed or found nothing new leaves empty.
 */
export function zoneHealth(
  rows: readonly HealthRow[],
  zones: ReadonlyArray<{ source: 'origin' | 'shield'; zone: number; lookbackDays: number }>,
  now: number,
  newestOf: (source: 'origin' | 'shield', zone: number) => number | null,
): ZoneHealth[] {
  const keyOf = (source: string, zone: number) => `${source} ${zone}`;
  const wanted = new Map(zones.map((z) => [keyOf(z.source, z.zone), z]));
  for (const r of rows) {
    const k = keyOf(r.source, r.zone_id);
    if (!wanted.has(k)) wanted.set(k, { source: r.source, zone: r.zone_id, lookbackDays: 0 });
  }
  const today = dayOf(now);
  return [...wanted.values()].map(({ source, zone, lookbackDays }) => {
    const mine = rows.filter((r) => r.source === source && r.zone_id === zone);
    const newestEntry = newestOf(source, zone);
    const firstPlanned = addDays(today, -lookbackDays);
    const open = mine
      .filter(
        (r) =>
          r.state !== 'complete' && r.state !== 'expired' && r.log_date >= firstPlanned && r.log_date < today,
      )
      .sort((a, b) => (a.log_date < b.log_date ? -1 : 1))[0];
    const complete = mine
      .filter((r) => r.state === 'complete')
      .map((r) => r.log_date)
      .sort();
    const errored = mine.filter((r) => r.last_error !== null).sort((a, b) => b.updated_at - a.updated_at)[0];
    return {
      source,
      zone,
      newestEntry,
      lagMs: newestEntry === null ? null : Math.max(0, now - newestEntry),
      lastSuccess: max(mine.map((r) => r.finished_at)),
      lastCompleteDay: complete.at(-1) ?? null,
      oldestOpen: open ? { day: open.log_date, state: open.state } : null,
      forgottenAt: open ? forgottenAt(source, open.log_date) : null,
      archived: mine.reduce((n, r) => n + r.archived_entries, 0),
      quarantined: mine.reduce((n, r) => n + r.quarantined_entries, 0),
      lastError: errored
        ? { day: errored.log_date, error: errored.last_error!, at: errored.updated_at }
        : null,
    };
  });
}

function max(values: ReadonlyArray<number | null>): number | null {
  let best: number | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

/** "2h05m", "3d04h", for how long until a day is forgotten or how far behind a zone is. */
export function span(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`;
}
