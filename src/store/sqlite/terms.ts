// term_hourly on SQLite: the values new-term rules ask about, counted per zone, hour and field in the
// page's own transaction (the log repositories call count()), and the question the rules ask of it.
import type { LogSource } from '../ledger-types.js';
import { rollupKey } from '../../values/storable.js';
import type { NewTermsQuery, NewTermsResult } from '../store.js';
import { pathPrefix, PLAIN_TERM_FIELDS, TermCounter, type TermRow } from '../terms.js';
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

/** The statement both stores run (with their own placeholders): the window's values absent from the lookback. */
export const NEW_TERMS_SQL = `WITH w AS (
    SELECT value, sum(count) AS n FROM term_hourly
    WHERE source = @source AND zone_id = @zone AND field = @field AND hour >= @from AND hour < @to
    GROUP BY value HAVING sum(count) >= @min
  ), fresh AS (
    SELECT value, n FROM w WHERE NOT EXISTS (
      SELECT 1 FROM term_hourly AS t
      WHERE t.source = @source AND t.zone_id = @zone AND t.field = @field AND t.value = w.value
        AND t.hour >= @lookbackFrom AND t.hour < @from)
  )
  SELECT value, n, (SELECT count(*) FROM fresh) AS total FROM fresh ORDER BY n DESC, value LIMIT @limit`;

export class TermsRepository {
  private readonly upsert;
  private readonly plain: readonly string[];

  constructor(
    private readonly db: Db,
    private readonly source: LogSource,
  ) {
    this.plain = PLAIN_TERM_FIELDS[source];
    this.upsert = db.prepare(`INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (source, zone_id, field, value, hour) DO UPDATE SET count = count + excluded.count`);
  }

  /** Counts `n` new rows of a zone; call inside the page's transaction. */
  count(zone: number, n: number, row: (i: number) => TermRow): void {
    const counter = new TermCounter();
    for (let i = 0; i < n; i++) counter.add(row(i), this.plain);
    for (const t of counter.entries()) this.upsert.run(this.source, zone, t.field, t.value, t.hour, t.count);
  }

  /** Retention: the hours before `beforeMs`. */
  prune(beforeMs: number): void {
    const hour = beforeMs - (beforeMs % 3_600_000);
    this.db
      .transaction(() =>
        this.db.prepare('DELETE FROM term_hourly WHERE source = ? AND hour < ?').run(this.source, hour),
      )
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
