// Pure: which columns of an archive table a statement reads, from DuckDB's parse tree (json_serialize_sql),
// so that a view copies only those of the store's rows into DuckDB (history-views.ts); the others come as
// NULL, which the statement never looks at. The store's rows are the one part of a query whose cost grows
// with what is stored and not yet flushed, and most of a row's bytes are in columns few statements read
// (`log`, the headers).
//
// Only what names its columns counts. Anything that reads columns it does not name gives every column:
// a star of any kind (`*`, `t.*`, `COLUMNS(…)`, `ORDER BY ALL`, a FROM-first statement), a positional
// reference (`#1`), a NATURAL join or USING (the columns they join on are not in the tree), a table
// function (`query_table('…')`, `query('…')` read a table by a name held as a string), and any name that
// is not a column of an archive table (a whole row as a struct, a table alias used as a value, a lambda's
// parameter, a select list alias: these are rare enough that missing the saving costs nothing).
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every column name of every archive table, and `time` (computed from `timestamp`). */
const KNOWN = new Set(
  [...Object.values(HISTORY_COLUMNS).flatMap((t) => t.columns.map(([name]) => name)), 'time'].map((n) =>
    n.toLowerCase(),
  ),
);

/**
 * The column names a statement names, lower case; null when it may read a column it does not name (the
 * module comment).
 */
export function namedColumns(tree: unknown): Set<string> | null {
  const names = new Set<string>();
  let all = false;
  const walk = (node: unknown): void => {
    if (all) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isNode(node)) return;
    if (
      node.class === 'STAR' ||
      node.class === 'POSITIONAL_REFERENCE' ||
      node.type === 'TABLE_FUNCTION' ||
      node.ref_type === 'NATURAL' ||
      (Array.isArray(node.using_columns) && node.using_columns.length > 0)
    ) {
      all = true;
      return;
    }
    if (node.class === 'COLUMN_REF') {
      const parts: unknown[] = Array.isArray(node.column_names) ? node.column_names : [];
      const last = parts[parts.length - 1];
      if (typeof last !== 'string' || !KNOWN.has(last.toLowerCase())) {
        all = true;
        return;
      }
      names.add(last.toLowerCase());
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(tree);
  return all ? null : names;
}

/**
 * Pure: the columns of `table` to copy from the store for a statement that names `named` (namedColumns);
 * null: every one. `time` needs the column it is computed from.
 */
export function columnsToCopy(table: HistoryTable, named: ReadonlySet<string> | null): Set<string> | null {
  if (named === null) return null;
  const { columns, timeFrom } = HISTORY_COLUMNS[table];
  const out = new Set(columns.map(([name]) => name).filter((name) => named.has(name.toLowerCase())));
  if (timeFrom !== undefined && named.has('time')) out.add(timeFrom);
  return out;
}
