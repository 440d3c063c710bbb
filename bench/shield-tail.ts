// State A's tail for the archive benches: rows stored above the flush watermark, as a page's transaction
// stores them, copied from a synced Shield day with new log ids.
import Database from 'better-sqlite3';
import type { Day } from '../src/time/utc-day.js';

/** The largest tail a reader can meet between two flushes (one flush per 50,000 stored rows). */
export const TAIL_ROWS = 49_999;

/**
 * Stores `rows` copies of the Shield day's rows (new log ids) in one new write batch, above the flush
 * watermark, as a page's transaction would (the rollups are left alone: no statement here reads them).
 */
export function addShieldTail(dbPath: string, day: Day, rows = TAIL_ROWS): void {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`not a row count: ${rows}`);
  // Before the process's first `new Database`: the readers open snapshots by file: URI (sqlite/database.ts).
  process.env.SQLITE_USE_URI ??= '1';
  const db = new Database(dbPath);
  try {
    const columns = (
      db.prepare('SELECT name, hidden FROM pragma_table_xinfo(?)').all('shield_event_logs') as Array<{
        name: string;
        hidden: number;
      }>
    )
      .filter((c) => c.hidden === 0 && c.name !== 'id' && c.name !== 'batch' && c.name !== 'log_id')
      .map((c) => c.name);
    db.transaction(() => {
      const { last } = db.prepare('UPDATE write_batch SET last = last + 1 RETURNING last').get() as {
        last: number;
      };
      const list = columns.join(', ');
      db.prepare(
        `INSERT INTO shield_event_logs (log_id, batch, ${list}) SELECT log_id || '-tail', ?, ${list} FROM shield_event_logs WHERE log_date = ? LIMIT ${rows}`,
      ).run(last, day);
    })();
  } finally {
    db.close();
  }
}
