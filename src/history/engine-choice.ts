// Which engine answers a statement when `edgelog query` is not told (--engine): the history (DuckDB)
// when the statement is one SELECT that reads an entry table or the quarantine and the history holds a
// file of one of those tables; the store otherwise. The store then answers exactly: the ledger, rollups
// and alert tables live only there, a statement DuckDB does not take as a SELECT (PRAGMA, EXPLAIN QUERY
// PLAN, a write to refuse) keeps the store's own checks and messages, and with no file published yet the
// store still holds every entry. DuckDB is loaded only when there are files to read.
//
// The DuckDB that parsed the statement is the one that runs it when the history answers: a second
// instance cost a one-row query 12–24 ms of start-up here (bench/startup.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_DUCKDB_OPTIONS, openDuckDb, type DuckDbOptions, type OpenDuckDb } from './duckdb.js';
import { HISTORY_TABLES, type HistoryTable } from './layout.js';
import { hasPublishedDay } from './published-days.js';
import { historyTablesIn, serializedSql, type SerializedSql } from './statement-tables.js';

export type ChosenEngine = 'history' | 'store';

/**
 * The engine chosen; for the history, the connection that parsed the statement and has run nothing else,
 * opened with the settings asked for: the statement is to run on it (the caller closes it).
 */
export type EngineChoice = { engine: 'store' } | { engine: 'history'; conn: DuckDBConnection };

/** The history tables that have at least one published file under `root`. */
export function tablesWithFiles(root: string): Promise<HistoryTable[]> {
  // One file is enough to tell: the listing stops there instead of reading every day directory.
  return Promise.resolve(HISTORY_TABLES.filter((table) => hasPublishedDay(root, table)));
}

/** DuckDB's parse tree of `sql`, on a connection of its own. */
export async function serializeSql(sql: string): Promise<SerializedSql> {
  const conn = await openDuckDb();
  try {
    return await serializedSql(conn, sql);
  } finally {
    conn.closeSync();
  }
}

/** Pure: the engine for a statement, given its parse tree and the tables that have files. */
export function engineFor(tree: SerializedSql, withFiles: readonly HistoryTable[]): ChosenEngine {
  if (tree.error || tree.statements.length !== 1) return 'store';
  return historyTablesIn(tree.statements).some((t) => withFiles.includes(t)) ? 'history' : 'store';
}

/** The engine for `sql`; DuckDB is opened (once, with `duckdb`) only when the history holds files. */
export async function chooseEngine(
  sql: string,
  root: string,
  opts: {
    /** @defaultValue DEFAULT_DUCKDB_OPTIONS (historyQueries' own) */
    duckdb?: DuckDbOptions;
    /** @defaultValue openDuckDb */
    open?: OpenDuckDb;
  } = {},
): Promise<EngineChoice> {
  const withFiles = await tablesWithFiles(root);
  if (withFiles.length === 0) return { engine: 'store' };
  const conn = await (opts.open ?? openDuckDb)(opts.duckdb ?? DEFAULT_DUCKDB_OPTIONS);
  let engine: ChosenEngine = 'store';
  try {
    engine = engineFor(await serializedSql(conn, sql), withFiles);
  } finally {
    if (engine === 'store') conn.closeSync();
  }
  return engine === 'history' ? { engine, conn } : { engine };
}
