// term_hourly against a count from scratch (SQLite): migration 0008's backfill over the entry tables,
// compared key by key with what ingestion counted, every entry above the watermark merged first, in a
// transaction rolled back (the archive is left as it was). Only for archives whose entries were never
// pruned: term_hourly keeps the counts of pruned entries, the backfill cannot see them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { TermsRepository } from '../../src/store/sqlite/terms.js';

/** Migration 0008's INSERT INTO term_hourly … over the entries (SQLite). */
const TERM_BACKFILL = (() => {
  const sql = readFileSync(
    join(import.meta.dirname, '../../migrations/sqlite/0008_new_terms_and_sql_alerts.sql'),
    'utf8',
  );
  return sql.slice(sql.indexOf('INSERT INTO term_hourly'), sql.indexOf('CREATE TABLE alert_series_state'));
})();

/** Every term_hourly row as JSON text, in key order. */
const termRows = (db: Db): string[] =>
  db
    .prepare('SELECT source, zone_id, field, value, hour, count FROM term_hourly ORDER BY 1, 2, 3, 4, 5')
    .all()
    .map((r) => JSON.stringify(r));

/** The keys whose counts differ (at most `limit`), as text; none when term_hourly is exact. */
export function termProblems(path: string, limit = 5): string[] {
  const db = openDatabase(path);
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const source of ['origin', 'shield'] as const) new TermsRepository(db, source).merge();
      const counted = termRows(db);
      db.exec('DELETE FROM term_hourly');
      db.exec(TERM_BACKFILL);
      const want = new Set(termRows(db));
      const got = new Set(counted);
      const problems = [
        ...counted
          .filter((r) => !want.has(r))
          .map((r) => `term_hourly holds ${r}, not in a count from scratch`),
        ...[...want].filter((r) => !got.has(r)).map((r) => `term_hourly lacks ${r}, in a count from scratch`),
      ];
      return problems.slice(0, limit);
    } finally {
      db.exec('ROLLBACK');
    }
  } finally {
    db.close();
  }
}
