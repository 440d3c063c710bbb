// Pure: the ledger as a calendar, each (source, zone) a row and each day of the range a cell holding the
// day's state and counts; a day the ledger has no row for is `not fetched`. The zones are those the
// ledger names in the range (the console reads the archive, not the worker's configuration).
import { dayRange, type Day } from '../time/utc-day.js';

/** One row of the ledger as the archive's dialect returns it (history/console-statements.ts ledgerSql). */
export interface LedgerRow {
  source: string;
  zone_id: number;
  log_date: string;
  state: string;
  pages: number | null;
  entries: number | null;
  archived_entries: number | null;
  quarantined_entries: number | null;
  last_error: string | null;
  updated_at: number | null;
}

export interface CalendarCell {
  day: Day;
  /** The ledger's state (complete, partial, running, failed, expired), or `not fetched`. */
  state: string;
  archived: number;
  entries: number | null;
  quarantined: number;
  lastError: string | null;
}

export interface CalendarRow {
  source: string;
  zone: number;
  cells: CalendarCell[];
}

export interface LedgerCalendar {
  from: Day;
  to: Day;
  days: Day[];
  rows: CalendarRow[];
  /** Cells per state over the whole calendar. */
  totals: Record<string, number>;
}

export function ledgerCalendar(rows: readonly LedgerRow[], from: Day, to: Day): LedgerCalendar {
  const days = dayRange(from, to);
  const byZone = new Map<string, Map<string, LedgerRow>>();
  for (const r of rows) {
    const key = `${r.source}\t${r.zone_id}`;
    const zone = byZone.get(key) ?? new Map<string, LedgerRow>();
    zone.set(r.log_date, r);
    byZone.set(key, zone);
  }
  const totals: Record<string, number> = {};
  const out: CalendarRow[] = [...byZone.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([key, zoneRows]) => {
      const [source, zone] = key.split('\t') as [string, string];
      const cells = days.map((day): CalendarCell => {
        const r = zoneRows.get(day);
        const cell: CalendarCell = r
          ? {
              day,
              state: r.state,
              archived: r.archived_entries ?? 0,
              entries: r.entries,
              quarantined: r.quarantined_entries ?? 0,
              lastError: r.last_error,
            }
          : { day, state: 'not fetched', archived: 0, entries: null, quarantined: 0, lastError: null };
        totals[cell.state] = (totals[cell.state] ?? 0) + 1;
        return cell;
      });
      return { source, zone: Number(zone), cells };
    });
  return { from, to, days, rows: out, totals };
}
