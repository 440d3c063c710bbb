// Which engine answers a statement when `edgelog query` is not told (--engine): the history (DuckDB)
// when the statement is one SELECT that reads an entry table or the quarantine and the history holds a
// file of one of those tables; the store otherwise. The store then answers exactly: the ledger, rollups
// and alert tables live only there, a statement DuckDB does not take as a SELECT (PRAGMA, EXPLAIN QUERY
// PLAN, a write to refuse) keeps the store's own checks and messages, and with no file published yet the
// store still holds every entry. DuckDB is loaded only when there are files to read.
import { openDuckDb } from './duckdb.js';
import { HISTORY_TABLES, type HistoryTable } from './layout.js';
import { hasPublishedDay } from './published-days.js';
import { historyTablesIn, sqlStringLiteral, type SerializedSql } from './statement-tables.js';

export type ChosenEngine = 'history' | 'store';

/** The history tables that have at least one published file under `root`. */
export function tablesWithFiles(root: string): Promise<HistoryTable[]> {
  // One file is enough to tell: the listing stops there instead of reading every day directory.
  return Promise.resolve(HISTORY_TABLES.filter((table) => hasPublishedDay(root, table)));
}

/** DuckDB's parse tree of `sql` (json_serialize_sql), on a connection of its own. */
export async function serializeSql(sql: string): Promise<SerializedSql> {
  const conn = await openDuckDb();
  try {
    const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${sqlStringLiteral(sql)})`);
    return JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
  } finally {
    conn.closeSync();
  }
}

/** Pure: the engine for a statement, given its parse tree and the tables that have files. */
export function engineFor(tree: SerializedSql, withFiles: readonly HistoryTable[]): ChosenEngine {
  if (tree.error || tree.statements.length !== 1) return 'store';
  return historyTablesIn(tree.statements).some((t) => withFiles.includes(t)) ? 'history' : 'store';
}

export async function chooseEngine(sql: string, root: string): Promise<ChosenEngine> {
  const withFiles = await tablesWithFiles(root);
  if (withFiles.length === 0) return 'store';
  return engineFor(await serializeSql(sql), withFiles);
}
