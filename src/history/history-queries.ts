// `edgelog query` over the history: one read-only statement run by DuckDB on views that join the
// published Parquet files of each zone-day with the store's rows of every zone-day that has no file yet,
// so each archived entry is counted exactly once and is visible as soon as its page is stored.
//
// For each history table the statement reads (and only those): list the published files, read the
// store's other rows (one statement, one snapshot) into a DuckDB table by chunks, list the files again
// and drop the rows of any zone-day published meanwhile (its file is read instead: the store may have
// pruned its rows by now, never before the file existed), then a view unions the two. Only then is
// DuckDB locked down: it may read those files and nothing else, and its settings cannot change.
import { DuckDBDataChunk, StatementType, type DuckDBConnection, type DuckDBResult } from '@duckdb/node-api';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryCursor, QueryStore, QueryValue, ReadOnlyQueryOptions } from '../store/store.js';
import { HISTORY_COLUMNS } from './columns.js';
import { sqlValue } from './duckdb-values.js';
import { DEFAULT_DUCKDB_OPTIONS, openDuckDb, type DuckDbOptions } from './duckdb.js';
import type { HistoryTable } from './layout.js';
import { dayKey, publishedDays, type PublishedDay } from './published-days.js';
import { historyTablesIn, sqlStringLiteral, type SerializedSql } from './statement-tables.js';
import { storeRowsSql, zoneDayPredicate } from './store-rows-sql.js';
import { WorkBudget } from './work-budget.js';

/** The schema holding the store's rows inside DuckDB (the views in `main` read it). */
const STORE_SCHEMA = 'edgelog_store';
/** Rows read from the store and appended to DuckDB at a time. */
const APPEND_ROWS = 2048;

export interface HistoryQueriesOptions {
  /** The history directory (historyPath). */
  root: string;
  /** The store's read-only query path: the rows of zone-days the history does not hold come from it. */
  store: QueryStore;
  /** @defaultValue DEFAULT_DUCKDB_OPTIONS */
  duckdb?: DuckDbOptions;
  /** Told, per table, how many rows came from the store and in how long (bench, tests). */
  onStoreRows?: (table: HistoryTable, rows: number, ms: number) => void | Promise<void>;
}

/** A QueryStore whose statements run on DuckDB over the history and the store's newer rows. */
export function historyQueries(opts: HistoryQueriesOptions): QueryStore {
  return { readOnly: (sql, ro, consume) => runOnHistory(opts, sql, ro, consume) };
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const READ_ONLY = 'query refused: edgelog query runs one SELECT statement over the history (it is read-only)';

/** DuckDB's failures as the store's query errors; a file access it refused is a refusal. */
function queryFailure(err: unknown): StoreQueryError {
  if (err instanceof StoreQueryError) return err;
  const text = message(err);
  if (/^Permission Error/.test(text))
    return new StoreQueryError('refused', `query refused: ${text.split('\n')[0]}`, { cause: err });
  const hint = /^Catalog Error: Table with name \w+ does not exist/.test(text)
    ? ' (the history engine has origin_error_logs, shield_event_logs and quarantined_entries; --engine store reads the ledger, rollups and alert tables)'
    : '';
  return new StoreQueryError('failed', `query failed: ${text}${hint}`, { cause: err });
}

async function runOnHistory<T>(
  opts: HistoryQueriesOptions,
  sql: string,
  ro: ReadOnlyQueryOptions,
  consume: (cursor: QueryCursor) => Promise<T>,
): Promise<T> {
  const conn = await openDuckDb(opts.duckdb ?? DEFAULT_DUCKDB_OPTIONS);
  const budget = new WorkBudget(ro.timeoutMs, () => conn.interrupt());
  try {
    const result = await budget.run(async () => {
      await conn.run(`SET TimeZone = 'UTC'`);
      const statements = await conn.extractStatements(sql).catch((err: unknown) => {
        throw queryFailure(err);
      });
      if (statements.count === 0)
        throw new StoreQueryError('refused', 'query refused: the SQL holds no statement');
      if (statements.count > 1) throw new StoreQueryError('refused', 'query refused: one statement per call');
      const files: string[] = [];
      for (const table of await tablesRead(conn, sql))
        files.push(...(await loadTable(conn, opts, table, budget, ro)));
      await lockDown(conn, files);
      const prepared = await statements.prepare(0).catch((err: unknown) => {
        throw queryFailure(err);
      });
      if (prepared.statementType !== StatementType.SELECT) throw new StoreQueryError('refused', READ_ONLY);
      return prepared.stream().catch((err: unknown) => {
        throw queryFailure(err);
      });
    });
    return await consume(resultCursor(result, budget));
  } catch (err) {
    throw queryFailure(err);
  } finally {
    conn.closeSync();
  }
}

/** The history tables the statement reads; a statement DuckDB cannot serialize is not a SELECT. */
async function tablesRead(conn: DuckDBConnection, sql: string): Promise<HistoryTable[]> {
  const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${sqlStringLiteral(sql)})`);
  const tree = JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
  if (tree.error) {
    if (/only select/i.test(tree.error_message ?? '')) throw new StoreQueryError('refused', READ_ONLY);
    throw new StoreQueryError(
      'failed',
      `query failed: ${tree.error_message ?? 'cannot parse the statement'}`,
    );
  }
  return historyTablesIn(tree.statements);
}

/** The view of one table over its files and the store's other rows; returns the files it reads. */
async function loadTable(
  conn: DuckDBConnection,
  opts: HistoryQueriesOptions,
  table: HistoryTable,
  budget: WorkBudget,
  ro: ReadOnlyQueryOptions,
): Promise<string[]> {
  const { columns, timeFrom } = HISTORY_COLUMNS[table];
  const before = await publishedDays(opts.root, table);
  const stored = `${STORE_SCHEMA}.${table}`;
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${STORE_SCHEMA}`);
  await conn.run(`CREATE TABLE ${stored} (${columns.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  const started = performance.now();
  const rows = await appendStoreRows(conn, opts.store, table, before, budget, ro);
  await opts.onStoreRows?.(table, rows, performance.now() - started);

  // A zone-day published while the store was read: its file holds its rows, which were read above too.
  const seen = new Set(before.map(dayKey));
  const after = await publishedDays(opts.root, table);
  const newly = after.filter((d) => !seen.has(dayKey(d)));
  const twice = zoneDayPredicate(table, newly);
  if (twice !== null) await conn.run(`DELETE FROM ${stored} WHERE ${twice}`);

  const names = columns.map(([n]) => `"${n}"`);
  const list = (from: string) =>
    [...names, ...(timeFrom ? [`epoch_ms("${timeFrom}") AS "time"`] : [])].join(', ') + ` FROM ${from}`;
  const parts = [`SELECT ${list(stored)}`];
  if (after.length > 0) {
    const paths = after.map((d) => sqlStringLiteral(d.file)).join(', ');
    // Cast as the store's types, so a file written by another tool still unions with the store's rows.
    const cast = columns.map(([n, t]) => `CAST("${n}" AS ${t}) AS "${n}"`).join(', ');
    parts.unshift(
      `SELECT ${list(`(SELECT ${cast} FROM read_parquet([${paths}], hive_partitioning = false))`)}`,
    );
  }
  await conn.run(`CREATE VIEW main.${table} AS ${parts.join(' UNION ALL ')}`);
  return after.map((d) => d.file);
}

/** The store's rows of `table` outside `inHistory`, appended to DuckDB a chunk at a time. */
async function appendStoreRows(
  conn: DuckDBConnection,
  store: QueryStore,
  table: HistoryTable,
  inHistory: readonly PublishedDay[],
  budget: WorkBudget,
  ro: ReadOnlyQueryOptions,
): Promise<number> {
  const { columns } = HISTORY_COLUMNS[table];
  const appender = await conn.createAppender(table, STORE_SCHEMA);
  const types = Array.from({ length: columns.length }, (_, i) => appender.columnType(i));
  const bigint = columns.map(([, t]) => t === 'BIGINT');
  let count = 0;
  try {
    await store.readOnly(
      storeRowsSql(table, inHistory),
      { timeoutMs: budget.remaining() ?? ro.timeoutMs },
      async (cursor) => {
        for (
          let rows = await cursor.next(APPEND_ROWS);
          rows.length > 0;
          rows = await cursor.next(APPEND_ROWS)
        ) {
          budget.check();
          const chunk = DuckDBDataChunk.create(types, rows.length);
          chunk.setRows(rows.map((row) => row.map((v, i) => storeValue(v, bigint[i]!))));
          appender.appendDataChunk(chunk);
          count += rows.length;
        }
      },
    );
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return count;
}

/** A store value in the history's type: integers as bigint, text as text (SQLite may hand either). */
function storeValue(value: QueryValue, bigint: boolean): bigint | string | null {
  if (value === null) return null;
  if (bigint) {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    throw new StoreQueryError('failed', `query failed: the store holds a non-integer where one is expected`);
  }
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString();
  return String(value);
}

/** After the views exist: DuckDB may read the history's files and nothing else, and stays so. */
async function lockDown(conn: DuckDBConnection, files: readonly string[]): Promise<void> {
  if (files.length > 0) await conn.run(`SET allowed_paths = [${files.map(sqlStringLiteral).join(', ')}]`);
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
}

/** The streaming result as a cursor of store-like values, each fetch on the budget. */
function resultCursor(result: DuckDBResult, budget: WorkBudget): QueryCursor {
  const columns = result.columnNames();
  let buffered: QueryValue[][] = [];
  let done = false;
  return {
    columns,
    async next(max) {
      while (!done && buffered.length < max) {
        const chunk = await budget
          .run(() => result.fetchChunk())
          .catch((err: unknown) => {
            throw queryFailure(err);
          });
        if (chunk === null || chunk.rowCount === 0) done = true;
        else for (const row of chunk.getRows()) buffered.push(row.map(sqlValue));
      }
      const out = buffered.slice(0, max);
      buffered = buffered.slice(max);
      return out;
    },
  };
}
