// Which history tables a statement reads, from DuckDB's own parse tree (json_serialize_sql), so that
// the store's rows are loaded only for those tables.
import type { DuckDBConnection } from '@duckdb/node-api';
import { HISTORY_TABLES, type HistoryTable } from './layout.js';

export type SerializedSql =
  { error: false; statements: unknown[] } | { error: true; error_type?: string; error_message?: string };

/** Pure: the history tables named as base tables anywhere in the tree (CTEs, subqueries, joins). */
export function historyTablesIn(tree: unknown): HistoryTable[] {
  const found = new Set<HistoryTable>();
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
      if (inMain && (HISTORY_TABLES as readonly string[]).includes(name)) found.add(name as HistoryTable);
    }
    for (const value of Object.values(n)) walk(value);
  };
  walk(tree);
  return HISTORY_TABLES.filter((t) => found.has(t));
}

/** A string literal for DuckDB (json_serialize_sql takes a constant only): quotes doubled. */
export const sqlStringLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's parse tree of `sql` (json_serialize_sql), on `conn`. */
export async function serializedSql(conn: DuckDBConnection, sql: string): Promise<SerializedSql> {
  const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${sqlStringLiteral(sql)})`);
  return JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
}
