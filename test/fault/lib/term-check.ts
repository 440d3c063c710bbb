// term_hourly against a count from scratch (SQLite): every entry above the watermark merged, in a
// transaction rolled back (the archive is left as it was), then compared key by key with the migration's
// backfill over the entries. Only for archives whose entries were never pruned: term_hourly keeps the
// counts of pruned entries, the backfill cannot see them.
import { openDatabase } from '../../../src/store/sqlite/database.js';
import { TermsRepository } from '../../../src/store/sqlite/terms.js';
import { TERM_BACKFILL, termRows } from '../../support/term-backfill.js';

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
