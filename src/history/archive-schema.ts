// The archive's tables and views as its dialect sees them, without a row: what a statement is checked
// against (a sql rule at start, without reading the store), and what `edgelog query --schema` and the
// console list. The same columns and types as the views and copies a statement runs on.
import type { DuckDBConnection } from '@duckdb/node-api';
import { HISTORY_COLUMNS, HISTORY_TABLES } from '../store/history-columns.js';
import { STORE_TABLE_NAMES, STORE_TABLES, type ArchiveColumnType } from '../store/archive-tables.js';
import { ARCHIVE_VIEWS } from './archive-views.js';
import { DEFAULT_DUCKDB_OPTIONS, type OpenDuckDb } from './duckdb.js';

export interface ArchiveRelation {
  name: string;
  kind: 'entries' | 'table' | 'view';
  about: string;
  columns: Array<{ name: string; type: string }>;
}

const ENTRY_ABOUT: Record<(typeof HISTORY_TABLES)[number], string> = {
  origin_error_logs: 'one row per origin error log entry',
  shield_event_logs: 'one row per Shield (WAF) event',
  quarantined_entries: 'entries the API sent that could not be keyed, as received',
};

/** Pure: the entry tables' columns in the dialect: the files' columns, and `time` where there is one. */
export function entryColumns(
  table: (typeof HISTORY_TABLES)[number],
): Array<[string, ArchiveColumnType | 'TIMESTAMP']> {
  const { columns, timeFrom } = HISTORY_COLUMNS[table];
  return [
    ...columns.map(([n, t]) => [n, t] as [string, ArchiveColumnType]),
    ...(timeFrom ? [['time', 'TIMESTAMP'] as [string, 'TIMESTAMP']] : []),
  ];
}

/** Makes every table and view of the archive, empty, on `conn`. */
export async function createEmptyArchive(conn: DuckDBConnection): Promise<void> {
  const table = (name: string, cols: ReadonlyArray<readonly [string, string]>) =>
    conn.run(`CREATE TABLE main.${name} (${cols.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  for (const name of HISTORY_TABLES) await table(name, entryColumns(name));
  for (const name of STORE_TABLE_NAMES) await table(name, STORE_TABLES[name].columns);
  for (const v of ARCHIVE_VIEWS) await conn.run(`CREATE VIEW main.${v.name} AS ${v.sql}`);
}

/** Every table and view of the archive with its columns and types (DuckDB's own description). */
export async function describeArchive(conn: DuckDBConnection): Promise<ArchiveRelation[]> {
  await createEmptyArchive(conn);
  const reader = await conn.runAndReadAll(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
  );
  const columns = new Map<string, Array<{ name: string; type: string }>>();
  for (const [t, c, type] of reader.getRows()) {
    const list = columns.get(String(t)) ?? [];
    list.push({ name: String(c), type: String(type) });
    columns.set(String(t), list);
  }
  return [
    ...HISTORY_TABLES.map((name) => ({ name, kind: 'entries' as const, about: ENTRY_ABOUT[name] })),
    ...STORE_TABLE_NAMES.map((name) => ({ name, kind: 'table' as const, about: STORE_TABLES[name].about })),
    ...ARCHIVE_VIEWS.map((v) => ({ name: v.name, kind: 'view' as const, about: v.about })),
  ].map((r) => ({ ...r, columns: columns.get(r.name) ?? [] }));
}

/** describeArchive on a DuckDB of its own, opened by `open` and closed after: reads no archive. */
export async function readArchiveSchema(open: OpenDuckDb): Promise<ArchiveRelation[]> {
  const conn = await open(DEFAULT_DUCKDB_OPTIONS);
  try {
    return await describeArchive(conn);
  } finally {
    conn.closeSync();
  }
}
