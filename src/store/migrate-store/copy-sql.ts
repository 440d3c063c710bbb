// Pure: the SQL of copying one batch of a table into the target (see tables.ts for what is copied and
// migrate-store.ts for the order of the steps).
//
// A batch goes one of two ways:
// - direct (entry tables, while every row is new): COPY straight into the entry table, its rollup
//   counted by the client from the batch; the unique key makes the COPY fail whole when any row is there
//   already, and the batch is then merged instead;
// - merge: COPY into a temporary staging table, then one INSERT … SELECT that skips (or, for the
//   `newest` rule, updates) the rows already there and says how many it inserted; for an entry table it
//   returns the rows it inserted, and the client counts them into the rollup in the same transaction.
import type { EntryTable } from '../entry-tables.js';
import type { CopyColumns, TableSpec } from './tables.js';
import { TERM_COLUMNS } from '../postgres/terms.js';

const stageName = (spec: TableSpec) => `edgelog_migrate_${spec.name}`;

/** The staging table, per connection, emptied at every commit. */
export function createStageSql(spec: TableSpec, cols: CopyColumns): string {
  const defs = cols.names.map((c, i) => `${c} ${cols.types[i]}`).join(', ');
  return `CREATE TEMP TABLE IF NOT EXISTS ${stageName(spec)} (${defs}) ON COMMIT DELETE ROWS`;
}

export function copyStageSql(spec: TableSpec, cols: CopyColumns): string {
  return `COPY ${stageName(spec)} (${cols.names.join(', ')}) FROM STDIN`;
}

/** The direct way: COPY into the table itself. */
export function copyDirectSql(spec: TableSpec, cols: CopyColumns): string {
  return `COPY ${spec.name} (${cols.names.join(', ')}) FROM STDIN`;
}

function rollupConflict(t: EntryTable): string {
  const r = t.rollup;
  return `ON CONFLICT (${t.zoneColumn}, hour, ${r.keys.join(', ')}) DO UPDATE SET count = ${r.table}.count + excluded.count`;
}

/**
 * The direct way's rollup: counts computed by the client, as arrays $1 zone, $2 hour, the keys…, count;
 * upserted in key order (two writers upserting the same keys lock them in the same order).
 */
export function rollupArraysSql(t: EntryTable): string {
  const r = t.rollup;
  const types = ['bigint', 'bigint', ...r.keyTypes, 'bigint'];
  const names = [t.zoneColumn, 'hour', ...r.keys];
  const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  return `INSERT INTO ${r.table} (${names.join(', ')}, count)
    SELECT ${names.join(', ')}, n FROM unnest(${arrays}) AS u(${names.join(', ')}, n)
    ORDER BY ${names.join(', ')}
    ${rollupConflict(t)}`;
}

/** What the source's value of each copied column is written as: NULL for a cleared one. */
function selectList(spec: TableSpec, cols: CopyColumns, alias = ''): string {
  return cols.names.map((c) => (spec.cleared?.includes(c) ? 'NULL' : `${alias}${c}`)).join(', ');
}

/**
 * The merge: one row, `inserted` and `updated` (bigint); for an entry table, the rows inserted instead
 * (zone, timestamp and the rollup's columns), which the caller counts into the rollup (storable.ts
 * decides a rollup's keys, once, for every writer).
 */
export function mergeSql(spec: TableSpec, cols: CopyColumns): string {
  const stage = stageName(spec);
  const list = cols.names.join(', ');
  const c = spec.conflict;
  const insert = `INSERT INTO ${spec.name} AS t (${list})`;
  if (spec.entry) {
    const t = spec.entry;
    return `${insert} SELECT ${selectList(spec, cols)} FROM ${stage}
    ON CONFLICT (${c.columns.join(', ')}) DO NOTHING
    RETURNING ${entryReturned(t).join(', ')}`;
  }
  if (c.kind === 'key') {
    return `WITH ins AS (
    ${insert} SELECT ${selectList(spec, cols)} FROM ${stage}
    ON CONFLICT (${c.columns.join(', ')}) DO NOTHING RETURNING 1
  )
  SELECT count(*)::bigint AS inserted, 0::bigint AS updated FROM ins`;
  }
  if (c.kind === 'absent') {
    const match = c.columns.map((k) => `e.${k} = s.${k}`).join(' AND ');
    return `WITH ins AS (
    ${insert} SELECT ${selectList(spec, cols, 's.')} FROM ${stage} AS s
    WHERE NOT EXISTS (SELECT 1 FROM ${spec.name} AS e WHERE ${match}) RETURNING 1
  )
  SELECT count(*)::bigint AS inserted, 0::bigint AS updated FROM ins`;
  }
  if (c.kind === 'ledger')
    throw new Error(`${spec.name} is merged by mergeLedgerBatch, not by one statement`);
  const set = cols.names
    .filter((n) => !c.columns.includes(n))
    .map((n) => `${n} = excluded.${n}`)
    .join(', ');
  const by = c.by;
  const progress = (r: string) => (typeof by === 'string' ? `${r}.${by}` : by(r));
  // xmax is 0 in a row version this statement inserted, and set in one it updated.
  return `WITH up AS (
    ${insert} SELECT ${selectList(spec, cols)} FROM ${stage}
    ON CONFLICT (${c.columns.join(', ')}) DO UPDATE SET ${set} WHERE ${progress('t')} < ${progress('excluded')}
    RETURNING (t.xmax = 0) AS fresh
  )
  SELECT count(*) FILTER (WHERE fresh)::bigint AS inserted, count(*) FILTER (WHERE NOT fresh)::bigint AS updated FROM up`;
}

/**
 * What an entry table's merge returns of each row inserted: zone, timestamp, the rollup's columns (in
 * this order, which rollupArrays reads), then the other columns its terms are taken from.
 */
export function entryReturned(t: EntryTable): string[] {
  const terms = TERM_COLUMNS[t.source];
  return [...new Set([t.zoneColumn, 'timestamp', ...t.rollup.keys, terms.url, ...terms.plain])];
}
