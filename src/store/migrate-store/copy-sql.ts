// Pure: the SQL of copying one batch of a table into the target (see tables.ts for what is copied and
// migrate-store.ts for the order of the steps).
//
// A batch goes one of two ways:
// - direct (entry tables, while every row is new): COPY straight into the entry table; the unique key
//   makes the COPY fail whole when any row is there already, and the batch is then merged instead;
// - merge: COPY into a temporary staging table, then one INSERT … SELECT that skips (or, for the
//   `newest` and `replace` rules, updates) the rows already there and says how many it inserted.
import type { CopyColumns, TableSpec } from './tables.js';

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

/** What the source's value of each copied column is written as: NULL for a cleared one. */
function selectList(spec: TableSpec, cols: CopyColumns, alias = ''): string {
  return cols.names.map((c) => (spec.cleared?.includes(c) ? 'NULL' : `${alias}${c}`)).join(', ');
}

/** The merge: one row, `inserted` and `updated` (bigint). */
export function mergeSql(spec: TableSpec, cols: CopyColumns): string {
  const stage = stageName(spec);
  const list = cols.names.join(', ');
  const c = spec.conflict;
  const insert = `INSERT INTO ${spec.name} AS t (${list})`;
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
  const others = cols.names.filter((n) => !c.columns.includes(n));
  const set = others.map((n) => `${n} = excluded.${n}`).join(', ');
  // replace: the source's row wherever it differs; newest: where it got further.
  const progress =
    c.kind === 'replace' ? null : (r: string) => (typeof c.by === 'string' ? `${r}.${c.by}` : c.by(r));
  const when =
    progress === null
      ? `(${others.map((n) => `t.${n}`).join(', ')}) IS DISTINCT FROM (${others.map((n) => `excluded.${n}`).join(', ')})`
      : `${progress('t')} < ${progress('excluded')}`;
  // xmax is 0 in a row version this statement inserted, and set in one it updated.
  return `WITH up AS (
    ${insert} SELECT ${selectList(spec, cols)} FROM ${stage}
    ON CONFLICT (${c.columns.join(', ')}) DO UPDATE SET ${set} WHERE ${when}
    RETURNING (t.xmax = 0) AS fresh
  )
  SELECT count(*) FILTER (WHERE fresh)::bigint AS inserted, count(*) FILTER (WHERE NOT fresh)::bigint AS updated FROM up`;
}
