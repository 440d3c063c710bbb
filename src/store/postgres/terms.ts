// term_hourly on PostgreSQL (as src/store/sqlite/terms.ts on SQLite): the values new-term rules ask
// about, counted by the page writer in the page's transaction, and the question the rules ask of it.
import type pg from 'pg';
import type { LogSource } from '../ledger-types.js';
import type { NewTermsQuery, NewTermsResult, TermsStore } from '../store.js';
import { PLAIN_TERM_FIELDS, TermCounter, type TermColumns } from '../terms.js';

/** The entry columns a page's terms are taken from (the merge path returns them for its new rows). */
export const TERM_COLUMNS: Record<LogSource, { url: string; plain: readonly string[] }> = {
  origin: { url: 'request_url', plain: PLAIN_TERM_FIELDS.origin },
  shield: { url: 'url', plain: PLAIN_TERM_FIELDS.shield },
};

/** Rows the merge path returned (entry column → value) as their terms see them. */
export function returnedTermColumns(
  source: LogSource,
  rows: ReadonlyArray<Record<string, string | number | null>>,
): TermColumns {
  const { url, plain } = TERM_COLUMNS[source];
  return {
    n: rows.length,
    timestamp: rows.map((r) => r.timestamp as number),
    url: rows.map((r) => {
      const u = r[url];
      return typeof u === 'string' ? u : null;
    }),
    plain: plain.map((f) => rows.map((r) => r[f] ?? null)),
  };
}

// In key order, so that two writers upserting the same keys take their row locks in the same order.
const UPSERT = `INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT $1::text, $2::bigint, field, value, hour, n
  FROM unnest($3::text[], $4::text[], $5::bigint[], $6::bigint[]) AS u(field, value, hour, n)
  ORDER BY field, value, hour
  ON CONFLICT (source, zone_id, field, value, hour) DO UPDATE SET count = term_hourly.count + excluded.count`;

/** Counts new rows of a zone into term_hourly, on the page's transaction `c`. */
export async function storeTerms(
  c: pg.ClientBase,
  source: LogSource,
  zone: number,
  rows: TermColumns,
): Promise<void> {
  if (rows.n === 0) return;
  const counter = new TermCounter();
  counter.add(rows, PLAIN_TERM_FIELDS[source]);
  const field: string[] = [];
  const value: string[] = [];
  const hour: number[] = [];
  const count: number[] = [];
  for (const t of counter.entries()) {
    field.push(t.field);
    value.push(t.value);
    hour.push(t.hour);
    count.push(t.count);
  }
  await c.query(UPSERT, [source, zone, field, value, hour, count]);
}

/**
 * The window's values absent from the lookback (as src/store/sqlite/terms.ts newTermsSql, which also
 * counts SQLite's entries not merged into term_hourly yet: PostgreSQL writes a page's counts to
 * term_hourly itself, in the page's transaction).
 */
const NEW_TERMS = `WITH w AS (
    SELECT value, sum(count) AS n FROM term_hourly
    WHERE source = $1 AND zone_id = $2 AND field = $3 AND hour >= $4 AND hour < $5
    GROUP BY value HAVING sum(count) >= $7
  ), fresh AS (
    SELECT value, n FROM w WHERE NOT EXISTS (
      SELECT 1 FROM term_hourly AS t
      WHERE t.source = $1 AND t.zone_id = $2 AND t.field = $3 AND t.value = w.value
        AND t.hour >= $6 AND t.hour < $4)
  )
  SELECT value, n::bigint AS n, (SELECT count(*) FROM fresh)::bigint AS total
  FROM fresh ORDER BY n DESC, value COLLATE "C" LIMIT $8`;

export class PostgresTerms implements TermsStore {
  constructor(private readonly pool: pg.Pool) {}

  async newTerms(q: NewTermsQuery): Promise<NewTermsResult> {
    const { rows } = await this.pool.query<{ value: string; n: number; total: number }>(NEW_TERMS, [
      q.source,
      q.zone,
      q.field,
      q.from,
      q.to,
      q.lookbackFrom,
      q.min,
      q.limit,
    ]);
    return {
      total: Number(rows[0]?.total ?? 0),
      values: rows.map((r) => ({ value: r.value, count: Number(r.n) })),
    };
  }
}
