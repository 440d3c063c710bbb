// term_hourly as a count from scratch: migration 0008's backfill over the entry tables, and the table's
// rows as comparable text, for tests that check the counts ingestion kept (fault suite, integration).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/store/sqlite/database.js';

/** Migration 0008's INSERT INTO term_hourly … over the entries (SQLite). */
export const TERM_BACKFILL = (() => {
  const sql = readFileSync(
    join(import.meta.dirname, '../../migrations/sqlite/0008_new_terms_and_sql_alerts.sql'),
    'utf8',
  );
  return sql.slice(sql.indexOf('INSERT INTO term_hourly'), sql.indexOf('CREATE TABLE alert_series_state'));
})();

/** Every term_hourly row as JSON text, in key order. */
export const termRows = (db: Db): string[] =>
  db
    .prepare('SELECT source, zone_id, field, value, hour, count FROM term_hourly ORDER BY 1, 2, 3, 4, 5')
    .all()
    .map((r) => JSON.stringify(r));
