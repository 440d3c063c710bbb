// Pure: the SQL of storing a page (see page-writer.ts for the order of the steps and why).
import type { EntryTable } from '../entry-tables.js';
import { TERM_COLUMNS } from './terms.js';

const stageName = (t: EntryTable) => `edgelog_stage_${t.source}`;

/**
 * A page transaction's first statement: its write batch (migrations/postgres/0009). The lock comes before
 * the number, so a flush that takes SHARE on write_batch waits for every transaction holding a number.
 */
export const TAKE_BATCH_SQL =
  "LOCK TABLE write_batch IN ROW EXCLUSIVE MODE; SELECT nextval('write_batch_seq')";

/** COPY straight into the entry table: zone, log_date, then the entry columns. */
export function copyEntriesSql(t: EntryTable): string {
  return `COPY ${t.table} (${t.zoneColumn}, log_date, ${t.columns.join(', ')}) FROM STDIN`;
}

/**
 * The staging table of the merge path, per connection; created in the page's transaction (IF NOT
 * EXISTS), so it also works behind a transaction-pooling proxy, and emptied at every commit.
 */
export function createStageSql(t: EntryTable): string {
  const cols = t.columns.map((c, i) => `${c} ${t.types[i]}`).join(', ');
  return `CREATE TEMP TABLE IF NOT EXISTS ${stageName(t)} (${cols}) ON COMMIT DELETE ROWS`;
}

export function copyStageSql(t: EntryTable): string {
  return `COPY ${stageName(t)} (${t.columns.join(', ')}) FROM STDIN`;
}

/** rollup += excluded.count on the rollup's key. */
function rollupConflict(t: EntryTable): string {
  const r = t.rollup;
  return `ON CONFLICT (${t.zoneColumn}, hour, ${r.keys.join(', ')}) DO UPDATE SET count = ${r.table}.count + excluded.count`;
}

/**
 * The merge path: the staged rows not yet archived are inserted (ON CONFLICT DO NOTHING on the entry
 * key), and the ones inserted are returned — their timestamp and rollup columns — for the writer to count
 * into the rollup and term_hourly (storable.ts decides a rollup's keys, once, for every writer). $1 zone,
 * $2 log_date.
 */
export function mergeStageSql(t: EntryTable): string {
  return `INSERT INTO ${t.table} (${t.zoneColumn}, log_date, ${t.columns.join(', ')})
    SELECT $1::bigint, $2::text, ${t.columns.join(', ')} FROM ${stageName(t)}
    ON CONFLICT (${t.zoneColumn}, timestamp, log_id) DO NOTHING
    RETURNING ${returned(t).join(', ')}`;
}

/** What the merge path returns of each row it inserted: its rollup keys and the columns of its terms. */
export function returned(t: EntryTable): string[] {
  const terms = TERM_COLUMNS[t.source];
  return [...new Set(['timestamp', ...t.rollup.keys, terms.url, ...terms.plain])];
}

/** Parameters of pageSql after the fixed ones, by position. */
export const PAGE_PARAMS = 15;

/**
 * The rest of a page, in one statement: the rollup counts of the rows inserted, computed by the writer,
 * the rejected entries into quarantine, and the ledger's progress, which
 * only the lease holder can make (`held` 0 otherwise: the caller rolls back).
 *
 * $1 source, $2 zone, $3 day, $4 owner, $5 next_token, $6 pages, $7 entries, $8 inserted, $9 malformed,
 * $10 quarantined, $11 first_ts, $12 last_ts, $13 lease_until, $14 now, $15 quarantine page; then the
 * rollup arrays (hour, keys…, count) and the quarantine arrays (raw, raw_hash, reason, position).
 */
export function pageSql(t: EntryTable): string {
  const r = t.rollup;
  let n = PAGE_PARAMS;
  const p = () => `$${++n}`;
  const rollupArrays = ['bigint', ...r.keyTypes, 'bigint'].map((type) => `${p()}::${type}[]`);
  const quarantineArrays = ['text', 'text', 'text', 'bigint'].map((type) => `${p()}::${type}[]`);
  const order = ['hour', ...r.keys].join(', ');
  return `WITH roll AS (
    INSERT INTO ${r.table} (${t.zoneColumn}, hour, ${r.keys.join(', ')}, count)
    SELECT $2::bigint, ${order}, n FROM unnest(${rollupArrays.join(', ')}) AS u(${order}, n)
    ORDER BY ${order}
    ${rollupConflict(t)}
  ), q AS (
    INSERT INTO quarantined_entries (source, zone_id, log_date, raw, raw_hash, reason, page, position, first_seen_at)
    SELECT $1::text, $2::bigint, $3::text, raw, raw_hash, reason, $15::bigint, position, $14::bigint
    FROM unnest(${quarantineArrays.join(', ')}) AS u(raw, raw_hash, reason, position)
    ON CONFLICT (source, zone_id, log_date, page, position, raw_hash) DO NOTHING
    RETURNING 1
  ), led AS (
    UPDATE ingest_ledger SET
      next_token = $5::text, pages = pages + $6::bigint, entries = entries + $7::bigint,
      new_entries = new_entries + $8::bigint, malformed = malformed + $9::bigint,
      quarantined = quarantined + $10::bigint,
      archived_entries = archived_entries + $8::bigint,
      quarantined_entries = quarantined_entries + (SELECT count(*) FROM q),
      first_ts = least(first_ts, $11::bigint), last_ts = greatest(last_ts, $12::bigint),
      lease_until = $13::bigint, updated_at = $14::bigint
    WHERE source = $1::text AND zone_id = $2::bigint AND log_date = $3::text AND lease_owner = $4::text
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM led)::int AS held, (SELECT count(*) FROM q)::int AS kept`;
}
