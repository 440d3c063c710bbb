// term_hourly on SQLite: the values new-term rules ask about, counted per zone, hour and field in the
// page's own transaction (the log repositories call count()), and the question the rules ask of it.
// A page's counts are appended to term_pending and merged into term_hourly by the page that takes it
// past MERGE_PENDING_AT rows (migrations/sqlite/0010 says why); the counts are the two tables' sum.
import type { LogSource } from '../ledger-types.js';
import { rollupKey } from '../../values/storable.js';
import type { NewTermsQuery, NewTermsResult } from '../store.js';
import { pathPrefix, PLAIN_TERM_FIELDS, TermCounter, type TermColumns } from '../terms.js';
import type { Db } from './database.js';

/**
 * The functions the backfill migration calls (migrations/sqlite/0008_*.sql): the same code the writers
 * key values with, so rows counted before and after the migration fall under the same keys.
 */
export function registerTermFunctions(db: Db): void {
  // SQLite hands these text (or NULL); a number in a TEXT column arrives as its text already.
  db.function('edgelog_rollup_key', { deterministic: true }, (v: string | number | null) =>
    v === null ? null : rollupKey(String(v)),
  );
  db.function('edgelog_path_prefix', { deterministic: true }, (url: string | null, depth: number) =>
    url === null || url === '' ? null : pathPrefix(url, depth),
  );
}

/**
 * Rows term_pending holds before a page's count merges them into term_hourly: bounds what a judgement
 * reads of it (through its hour index) and the merge a page's transaction does.
 */
export const MERGE_PENDING_AT = 16_384;

/**
 * The window's values absent from the lookback, over term_hourly and term_pending together (as
 * src/store/postgres/terms.ts over PostgreSQL's term_hourly alone). term_hourly is probed by value for
 * each value of the window; term_pending's values of the lookback are read once (NOT IN: one lookup
 * table), as it is small and keyed by hour.
 */
export const NEW_TERMS_SQL = `WITH w AS (
    SELECT value, sum(n) AS n FROM (
      SELECT value, count AS n FROM term_hourly
      WHERE source = @source AND zone_id = @zone AND field = @field AND hour >= @from AND hour < @to
      UNION ALL
      SELECT value, count FROM term_pending
      WHERE source = @source AND zone_id = @zone AND field = @field AND hour >= @from AND hour < @to)
    GROUP BY value HAVING sum(n) >= @min
  ), fresh AS (
    SELECT value, n FROM w WHERE NOT EXISTS (
      SELECT 1 FROM term_hourly AS t
      WHERE t.source = @source AND t.zone_id = @zone AND t.field = @field AND t.value = w.value
        AND t.hour >= @lookbackFrom AND t.hour < @from)
    AND value NOT IN (
      SELECT p.value FROM term_pending AS p
      WHERE p.source = @source AND p.zone_id = @zone AND p.field = @field
        AND p.hour >= @lookbackFrom AND p.hour < @from)
  )
  SELECT value, n, (SELECT count(*) FROM fresh) AS total FROM fresh ORDER BY n DESC, value LIMIT @limit`;

/** Moves term_pending's counts into term_hourly, summed per key and in key order. In a transaction. */
export function mergePendingTerms(db: Db): void {
  db.prepare(
    `INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
     SELECT source, zone_id, field, value, hour, sum(count) FROM term_pending WHERE true
     GROUP BY source, zone_id, field, value, hour
     ON CONFLICT (source, zone_id, field, value, hour) DO UPDATE SET count = count + excluded.count`,
  ).run();
  db.prepare('DELETE FROM term_pending').run();
}

export class TermsRepository {
  private readonly append;
  private readonly pending;
  private readonly plain: readonly string[];

  constructor(
    private readonly db: Db,
    private readonly source: LogSource,
  ) {
    this.plain = PLAIN_TERM_FIELDS[source];
    this.append = db.prepare(`INSERT INTO term_pending (source, zone_id, field, value, hour, count)
      VALUES (?, ?, ?, ?, ?, ?)`);
    // Rows appended since it was last emptied (rowids start again at 1 then), from the table's last row.
    this.pending = db.prepare('SELECT coalesce(max(rowid), 0) FROM term_pending').pluck();
  }

  /** Counts new rows of a zone (their plain columns in PLAIN_TERM_FIELDS order); call inside the page's transaction. */
  count(zone: number, rows: TermColumns): void {
    const counter = new TermCounter();
    counter.addColumns(rows, this.plain);
    for (const t of counter.entries()) this.append.run(this.source, zone, t.field, t.value, t.hour, t.count);
    if ((this.pending.get() as number) >= MERGE_PENDING_AT) mergePendingTerms(this.db);
  }

  /** Retention: the hours before `beforeMs`. */
  prune(beforeMs: number): void {
    const hour = beforeMs - (beforeMs % 3_600_000);
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM term_hourly WHERE source = ? AND hour < ?').run(this.source, hour);
        this.db.prepare('DELETE FROM term_pending WHERE source = ? AND hour < ?').run(this.source, hour);
      })
      .immediate();
  }
}

/** The window's values a zone had not had in the lookback before it (see NewTermsQuery). */
export function newTerms(db: Db, q: NewTermsQuery): NewTermsResult {
  const rows = db.prepare(NEW_TERMS_SQL).all({
    source: q.source,
    zone: q.zone,
    field: q.field,
    from: q.from,
    to: q.to,
    lookbackFrom: q.lookbackFrom,
    min: q.min,
    limit: q.limit,
  }) as Array<{ value: string; n: number; total: number }>;
  return { total: rows[0]?.total ?? 0, values: rows.map((r) => ({ value: r.value, count: r.n })) };
}
