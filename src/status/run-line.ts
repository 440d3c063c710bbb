// Pure: the quiet line `edgelog run` keeps redrawn at the foot of a terminal, so that a worker with
// nothing to report still shows that it lives: `worker running · last pass 10:42:05 · next pass
// 10:44:05 · today 12,345 entries · 1 alert firing` (UTC, as every time edgelog prints).
import { clockTime } from '../format/log-line.js';
import { thousands } from '../format/table.js';
import type { LedgerRow } from '../store/store.js';
import type { Day } from '../time/utc-day.js';

export interface RunFigures {
  /** When a pass over a zone-day last ended (ms), or null before the first. */
  lastPassAt: number | null;
  /** When the next scheduled pass is due (ms), or null when none is scheduled. */
  nextPassAt: number | null;
  /** Entries archived for today's UTC day, every zone. */
  entriesToday: number;
  /** Alerts firing now (a rule's zone, or a sql rule's row). */
  alertsFiring: number;
}

export function runLine(f: RunFigures): string {
  return [
    'worker running',
    `last pass ${f.lastPassAt === null ? 'none yet' : clockTime(f.lastPassAt)}`,
    `next pass ${f.nextPassAt === null ? 'not scheduled' : clockTime(f.nextPassAt)}`,
    `today ${thousands(f.entriesToday)} ${f.entriesToday === 1 ? 'entry' : 'entries'}`,
    `${thousands(f.alertsFiring)} ${f.alertsFiring === 1 ? 'alert' : 'alerts'} firing`,
  ].join(' · ');
}

/** The ledger's part of the figures: the newest end of a pass, and today's entries. */
export function ledgerFigures(
  rows: ReadonlyArray<Pick<LedgerRow, 'log_date' | 'finished_at' | 'archived_entries'>>,
  today: Day,
): Pick<RunFigures, 'lastPassAt' | 'entriesToday'> {
  let lastPassAt: number | null = null;
  let entriesToday = 0;
  for (const r of rows) {
    if (r.finished_at !== null && (lastPassAt === null || r.finished_at > lastPassAt))
      lastPassAt = r.finished_at;
    if (r.log_date === today) entriesToday += r.archived_entries;
  }
  return { lastPassAt, entriesToday };
}
