// Which of the archive's tables and views a statement reads, from DuckDB's own parse tree
// (json_serialize_sql), so that only those are made for it.
import type { DuckDBConnection } from '@duckdb/node-api';
import { HISTORY_TABLES, type HistoryTable } from './layout.js';

export type SerializedSql =
  { error: false; statements: unknown[] } | { error: true; error_type?: string; error_message?: string };

/** Pure: the history tables named as base tables anywhere in the tree (CTEs, subqueries, joins). */
export function historyTablesIn(tree: unknown): HistoryTable[] {
  return tablesIn(tree, HISTORY_TABLES);
}

/** Pure: which of `names` are named as base tables anywhere in the tree, in the order of `names`. */
export function tablesIn<N extends string>(tree: unknown, names: readonly N[]): N[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.type === 'BASE_TABLE' && typeof n.table_name === 'string') {
      const schema = typeof n.schema_name === 'string' ? n.schema_name : '';
      const catalog = typeof n.catalog_name === 'string' ? n.catalog_name : '';
      const name = n.table_name.toLowerCase();
      // Unqualified, or qualified as DuckDB's default catalog and schema.
      const inMain = (schema === '' || schema === 'main') && (catalog === '' || catalog === 'memory');
      if (inMain && (names as readonly string[]).includes(name)) found.add(name);
    }
    for (const value of Object.values(n)) walk(value);
  };
  walk(tree);
  return names.filter((t) => found.has(t));
}

/** A string literal for DuckDB (json_serialize_sql takes a constant only): quotes doubled. */
export const sqlStringLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's parse tree of `sql` (json_serialize_sql), on `conn`. */
export async function serializedSql(conn: DuckDBConnection, sql: string): Promise<SerializedSql> {
  const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${sqlStringLiteral(sql)})`);
  return JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
}

/** DuckDB's parse tree of `sql`, on a connection of its own (tests and tools). */
export async function serializeSql(sql: string): Promise<SerializedSql> {
  const { openDuckDb } = await import('./duckdb.js');
  const conn = await openDuckDb();
  try {
    return await serializedSql(conn, sql);
  } finally {
    conn.closeSync();
  }
}
