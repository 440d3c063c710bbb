// term_hourly on PostgreSQL (as src/store/sqlite/terms.ts on SQLite): the values new-term rules ask
// about, counted by the page writer in the page's transaction, and the question the rules ask of it.
import type pg from 'pg';
import type { LogSource } from '../ledger-types.js';
import type { NewTermsQuery, NewTermsResult, TermsStore } from '../store.js';
import { PLAIN_TERM_FIELDS, TermCounter, type TermRow } from '../terms.js';
import type { AnyBatch } from '../entry-tables.js';
import type { OriginBatch, ShieldBatch } from '../rows.js';

/** The entry columns a page's terms are taken from (the merge path returns them for its new rows). */
export const TERM_COLUMNS: Record<LogSource, { url: string; plain: readonly string[] }> = {
  origin: { url: 'request_url', plain: PLAIN_TERM_FIELDS.origin },
  shield: { url: 'url', plain: PLAIN_TERM_FIELDS.shield },
};

/** Row `i` of a batch as its terms see it. */
export function batchTermRow(source: LogSource, b: AnyBatch, i: number): TermRow {
  if (source === 'origin') {
    const o = b as OriginBatch;
    return {
      timestamp: o.timestamp[i]!,
      url: o.requestUrl[i] ?? null,
      fields: { error_code: o.errorCode[i] ?? null, status_code: o.statusCode[i] ?? null },
    };
  }
  const s = b as ShieldBatch;
  return {
    timestamp: s.timestamp[i]!,
    url: s.url[i] ?? null,
    fields: {
      country: s.country[i] ?? null,
      asn: s.asn[i] ?? null,
      rule_id: s.ruleId[i] ?? null,
      severity: s.severity[i] ?? null,
      method: s.method[i] ?? null,
    },
  };
}

/** A row the merge path returned (entry column → value) as its terms see it. */
export function returnedTermRow(source: LogSource, r: Record<string, string | number | null>): TermRow {
  const { url, plain } = TERM_COLUMNS[source];
  const u = r[url];
  return {
    timestamp: r.timestamp as number,
    url: typeof u === 'string' ? u : null,
    fields: Object.fromEntries(plain.map((f) => [f, r[f] ?? null])),
  };
}

// In key order, so that two writers upserting the same keys take their row locks in the same order.
const UPSERT = `INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT $1::text, $2::bigint, field, value, hour, n
  FROM unnest($3::text[], $4::text[], $5::bigint[], $6::bigint[]) AS u(field, value, hour, n)
  ORDER BY field, value, hour
  ON CONFLICT (source, zone_id, field, value, hour) DO UPDATE SET count = term_hourly.count + excluded.count`;

/** Counts `n` new rows of a zone into term_hourly, on the page's transaction `c`. */
export async function storeTerms(
  c: pg.ClientBase,
  source: LogSource,
  zone: number,
  n: number,
  row: (i: number) => TermRow,
): Promise<void> {
  if (n === 0) return;
  const counter = new TermCounter();
  const plain = PLAIN_TERM_FIELDS[source];
  for (let i = 0; i < n; i++) counter.add(row(i), plain);
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
 * The window's values absent from the lookback (as src/store/sqlite/terms.ts NEW_TERMS_SQL, which also
 * reads SQLite's term_pending: PostgreSQL writes a page's counts to term_hourly itself).
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
