// The archive's one SQL dialect: a read-only statement run by DuckDB over the whole archive, whatever
// state each day is in. The entry tables and the quarantine are views over the history's parts and the
// store's rows not flushed into parts yet (history-views.ts), so each archived entry is counted exactly
// once and is visible as soon as its page is stored; the ledger, rollups, alert and history tables are
// copied from the store (archive-tables.ts), and the rollups' views are made over them (archive-views.ts).
//
// Only what the statement reads is made. Only then is DuckDB locked down: it may read those files and
// nothing else, and its settings cannot change; then the statement runs, and only if it is a SELECT.
//
// A page's statements (readEach) share one DuckDB: the views are made once for all of them (one reading of
// the watermark, the parts and the store: one snapshot), then they run on it in turn, under one time
// bound. In turn, not at once: statements at once on one database held more memory than the process may
// (the console bench's peak RSS, 10 users, went from 372 to 497 MiB; its bar is 400).
import { existsSync } from 'node:fs';
import { normalize, sep } from 'node:path';
import {
  StatementType,
  type DuckDBConnection,
  type DuckDBMaterializedResult,
  type DuckDBResult,
} from '@duckdb/node-api';
import { StoreQueryError } from '../store/store-query-error.js';
import { EdgelogError } from '../errors/edgelog-error.js';
import type { QueryCursor, QueryStore, QueryValue, ReadOnlyQueryOptions } from '../store/store.js';
import { sqlValue } from './duckdb-values.js';
import { DEFAULT_DUCKDB_OPTIONS, openDuckDb, type DuckDbOptions, type OpenDuckDb } from './duckdb.js';
import { closeGuarded, lockDownDuckDb, privateSpill } from './duckdb-guard.js';
import { createHistoryViews, type HistoryViewsOptions } from './history-views.js';
import { sharedViewNeeds, type ViewNeeds } from './view-needs.js';
import { historyTablesIn, serializedSql, sqlStringLiteral, tablesIn } from './statement-tables.js';
import { DEFAULT_PARQUET_OPTIONS, parquetOptionsSql } from './parquet-options.js';
import { ARCHIVE_VIEWS, ARCHIVE_VIEW_NAMES } from './archive-views.js';
import { STORE_TABLE_NAMES } from '../store/archive-tables.js';
import { HISTORY_TABLES, type HistoryTable } from './layout.js';
import { copyStoreTables } from './store-tables.js';
import { createEmptyArchive } from './archive-schema.js';

/** Every table and view a statement can read, for the hint of a statement that names another. */
const ARCHIVE_NAMES: readonly string[] = [...HISTORY_TABLES, ...STORE_TABLE_NAMES, ...ARCHIVE_VIEW_NAMES];
import { WorkBudget } from './work-budget.js';

/** The archive's statements, and one's rows written as a Parquet file (the console's downloads). */
export interface ArchiveQueryStore extends QueryStore {
  /**
   * Runs each of `sqls` as readOnly runs one, over one snapshot of the archive: the views and the store's
   * rows are made once, for what every statement reads (view-needs.ts), then the statements run in turn
   * on that DuckDB and `consume` is handed each one's rows; the answers come back in the order of `sqls`.
   * `opts.timeoutMs` bounds them together. When a part is removed under them before a statement's first
   * row, they all start over on the history as it is now: `consume` is then called again from the first
   * statement, and only the last round's answers are returned.
   */
  readEach<T>(
    sqls: readonly string[],
    opts: ReadOnlyQueryOptions,
    consume: (index: number, cursor: QueryCursor) => Promise<T>,
  ): Promise<T[]>;
  /**
   * Writes the rows of one SELECT, `limit` at most, in its order, to `file` as Parquet: DuckDB's COPY
   * with the history's encoding, as `edgelog export` writes it. DuckDB may write that one file and
   * nothing else; the statement is checked as `readOnly` checks it. Returns how many rows.
   */
  toParquet(sql: string, file: string, opts: ReadOnlyQueryOptions & { limit: number }): Promise<number>;
}

export interface ArchiveQueriesOptions extends Omit<HistoryViewsOptions, 'scope'> {
  /** @defaultValue DEFAULT_DUCKDB_OPTIONS */
  duckdb?: DuckDbOptions;
  /** Opens each statement's DuckDB. @defaultValue openDuckDb */
  open?: OpenDuckDb;
}

/**
 * Throws StoreQueryError unless `sql` is one SELECT that binds against the archive's tables and views
 * (archive-schema.ts): its names, columns and functions. Reads nothing of the store or the history.
 */
export async function checkArchiveStatement(sql: string, open: OpenDuckDb = openDuckDb): Promise<void> {
  const conn = await open(DEFAULT_DUCKDB_OPTIONS);
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    await oneStatement(conn, sql);
    const tree = await parsed(conn, sql);
    await createEmptyArchive(conn);
    await lockDownDuckDb(conn, [], tree);
    const prepared = await conn.prepare(sql).catch((err: unknown) => {
      throw queryFailure(err);
    });
    if (prepared.statementType !== StatementType.SELECT) throw new StoreQueryError('refused', READ_ONLY);
  } finally {
    conn.closeSync();
  }
}

/** Refuses SQL that is not exactly one statement. */
async function oneStatement(conn: DuckDBConnection, sql: string): Promise<void> {
  const statements = await conn.extractStatements(sql).catch((err: unknown) => {
    throw queryFailure(err);
  });
  if (statements.count === 0)
    throw new StoreQueryError('refused', 'query refused: the SQL holds no statement');
  if (statements.count > 1) throw new StoreQueryError('refused', 'query refused: one statement per call');
}

/** A QueryStore whose statements run on DuckDB over the whole archive (the module comment). */
export function archiveQueries(opts: ArchiveQueriesOptions): ArchiveQueryStore {
  const open = (): Promise<DuckDBConnection> =>
    (opts.open ?? openDuckDb)(opts.duckdb ?? DEFAULT_DUCKDB_OPTIONS);
  return {
    readOnly: async (sql, ro, consume) =>
      (await runOnHistory(opts, open, [sql], ro, { consume: (_i, cursor) => consume(cursor) }))[0]!,
    readEach: (sqls, ro, consume) =>
      sqls.length === 0 ? Promise.resolve([]) : runOnHistory(opts, open, sqls, ro, { consume }),
    toParquet: async (sql, file, ro) => {
      if (!Number.isSafeInteger(ro.limit) || ro.limit < 1)
        throw new RangeError(`not a row limit: ${ro.limit}`);
      const [rows] = await runOnHistory<number>(opts, open, [sql], ro, {
        parquet: { file, limit: ro.limit },
      });
      return rows!;
    },
  };
}

/** What the statements' results are for: each one's rows handed to `consume`, or written to a Parquet file. */
type StatementUse<T> =
  | { consume: (index: number, cursor: QueryCursor) => Promise<T>; parquet?: never }
  | { parquet: { file: string; limit: number }; consume?: never };

/** A failure before a statement's first row (the views, the lock-down, the statement's start): `cause`. */
class NotStarted extends Error {
  override name = 'NotStarted';
  constructor(
    cause: unknown,
    /** A file of the views that the failure names and that is gone now (a merge replaced it), or null. */
    readonly gone: string | null,
  ) {
    super('before the first row', { cause });
  }
}

/** Parquet of a statement's rows: the history's encoding of its widest rows (Shield's). */
const RESULT_PARQUET = DEFAULT_PARQUET_OPTIONS.shield_event_logs;

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const READ_ONLY = 'query refused: edgelog query runs one SELECT statement (the archive is read-only)';

/** Where the dialect is described, named by every failure a statement can fix. */
const DOCS = 'docs/SQL.md';

/** What a statement that names a file is told: the tables read the history's files already. */
const FILES_HINT = `edgelog query reads the history's files through the archive's tables (${DOCS}); it opens no other file`;

/** DuckDB's failures as the store's query errors; a file access it refused is a refusal. */
function queryFailure(err: unknown): EdgelogError {
  // The store's own failures (a file it cannot open, a server it cannot reach) say what they are.
  if (err instanceof EdgelogError) return err;
  const text = message(err);
  // DuckDB's whole text (with the statement's line) is the message, not repeated as a cause.
  if (/^Permission Error/.test(text))
    return new StoreQueryError('refused', `query refused: ${text.trimEnd()}\n${FILES_HINT}`);
  const hint = /^Catalog Error: Table with name \S+ does not exist/.test(text)
    ? `the archive's tables and views: ${ARCHIVE_NAMES.join(', ')} (${DOCS})`
    : /^(Parser Error|Binder Error|Catalog Error)/.test(text)
      ? `edgelog query speaks DuckDB's SQL: ${DOCS}`
      : '';
  // DuckDB's suggestions name its own catalog (`Did you mean "pg_views"?`), never the archive's. The
  // message is DuckDB's whole text: it is not repeated as a cause.
  const own = text.replace(/\n*Did you mean "[^"]*"\?/, '').trimEnd();
  return new StoreQueryError('failed', `query failed: ${own}${hint === '' ? '' : `\n${hint}`}`);
}

/**
 * Attempts at a statement whose files went away before its first row: a file listed, then removed before
 * DuckDB opened it. Each attempt lists the history again and reads the store again, so the answer is
 * the history as it is now, each entry once.
 */
const ATTEMPTS = 3;

/** The caller's signal stops the statements: DuckDB is interrupted, and the query fails as `stopped`. */
async function runOnHistory<T>(
  opts: ArchiveQueriesOptions,
  open: () => Promise<DuckDBConnection>,
  sqls: readonly string[],
  ro: ReadOnlyQueryOptions,
  use: StatementUse<T>,
): Promise<T[]> {
  const { signal } = ro;
  const conn: { current: DuckDBConnection | null } = { current: null };
  const stop = () => conn.current?.interrupt();
  signal?.addEventListener('abort', stop);
  try {
    if (signal?.aborted) throw new Error('stopped before it began');
    return await attempts(opts, open, sqls, ro, use, conn);
  } catch (err) {
    if (signal?.aborted) throw new StoreQueryError('stopped', 'query stopped', { cause: err });
    throw err;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

async function attempts<T>(
  opts: ArchiveQueriesOptions,
  open: () => Promise<DuckDBConnection>,
  sqls: readonly string[],
  ro: ReadOnlyQueryOptions,
  use: StatementUse<T>,
  conn: { current: DuckDBConnection | null },
): Promise<T[]> {
  // One budget over every attempt: --timeout bounds the query, not each try.
  const budget = new WorkBudget(ro.timeoutMs, () => conn.current?.interrupt());
  for (let attempt = 1; ; attempt++) {
    const current = await open();
    conn.current = current;
    try {
      return await answered(current, opts, sqls, budget, use);
    } catch (err) {
      if (!(err instanceof NotStarted)) throw queryFailure(err);
      const gone = err.gone ?? vanishedFile(err.cause, opts.root);
      if (gone !== null && attempt < ATTEMPTS) continue;
      throw gone !== null ? raced(gone, err.cause) : queryFailure(err.cause);
    } finally {
      closeGuarded(current);
    }
  }
}

/** The statements' answers on `conn`: the views made once, then each statement in turn. */
async function answered<T>(
  conn: DuckDBConnection,
  opts: ArchiveQueriesOptions,
  sqls: readonly string[],
  budget: WorkBudget,
  use: StatementUse<T>,
): Promise<T[]> {
  let listed: readonly string[] = [];
  const beforeRows = <R>(work: () => Promise<R>): Promise<R> =>
    budget.run(work).catch((err: unknown) => {
      throw new NotStarted(err, goneFile(err, listed));
    });
  const files = await beforeRows(() => createViews(conn, opts, sqls, budget));
  listed = files.paths;
  if (use.parquet !== undefined) {
    const { file, limit } = use.parquet;
    // A COPY's result is the count of rows it wrote.
    const copied = await beforeRows(() => copyToParquet(conn, files, sqls[0]!, file, limit));
    return [copied.rowsChanged as T];
  }
  await beforeRows(() => lockDownDuckDb(conn, files.paths, files.trees));
  const answers: T[] = [];
  for (const [i, sql] of sqls.entries()) {
    const result = await beforeRows(() => started(conn, sql));
    answers.push(await use.consume(i, resultCursor(result, budget, opts.root)));
  }
  return answers;
}

/** The views the statements read and the files they read (each statement's parse tree beside). */
interface Views {
  paths: string[];
  trees: unknown[];
}

/** Makes the views DuckDB is to answer `sqls` from: once, for what every one of them reads. */
async function createViews(
  conn: DuckDBConnection,
  opts: ArchiveQueriesOptions,
  sqls: readonly string[],
  budget: WorkBudget,
): Promise<Views> {
  await privateSpill(conn, opts.root);
  await conn.run(`SET TimeZone = 'UTC'`);
  // The view's files are opened when it is made, again when the statement is prepared, and when it
  // runs: their metadata is read once.
  await conn.run('SET parquet_metadata_cache = true');
  const trees: unknown[] = [];
  for (const sql of sqls) {
    await oneStatement(conn, sql);
    trees.push(await parsed(conn, sql));
  }
  const tables = historyTablesIn(trees);
  const needs = Object.fromEntries(tables.map((t) => [t, sharedViewNeeds(trees, t)]));
  const each = <K extends keyof ViewNeeds>(key: K) =>
    Object.fromEntries(tables.map((t) => [t, needs[t]![key]])) as Partial<Record<HistoryTable, ViewNeeds[K]>>;
  const paths = await createHistoryViews(
    conn,
    {
      ...opts,
      bounds: each('bounds'),
      guards: each('guards'),
      columns: each('columns'),
      days: each('days'),
      order: each('order'),
    },
    tables,
    budget,
  );
  const views = ARCHIVE_VIEWS.filter((v) => tablesIn(trees, [v.name]).length > 0);
  const copied = tablesIn(trees, STORE_TABLE_NAMES);
  for (const v of views) for (const t of v.reads) if (!copied.includes(t)) copied.push(t);
  await copyStoreTables(conn, opts.store, copied, budget);
  for (const v of views) await conn.run(`CREATE VIEW main.${v.name} AS ${v.sql}`);
  return { paths, trees };
}

/** Locks DuckDB down (it may write `file` too) and writes the rows of `sql` to it as Parquet. */
async function copyToParquet(
  conn: DuckDBConnection,
  views: Views,
  sql: string,
  file: string,
  limit: number,
): Promise<DuckDBMaterializedResult> {
  await lockDownDuckDb(conn, [...views.paths, file], views.trees);
  // The statement as DuckDB parsed it (a SELECT: DuckDB serializes nothing else), written back as
  // one clean statement, so no comment or semicolon of the user's text can end the COPY's brackets.
  const select = await canonicalSql(conn, sql);
  return await conn
    .run(
      `COPY (SELECT * FROM (\n${select}\n) LIMIT ${limit}) TO ${sqlStringLiteral(file)} ` +
        `(${parquetOptionsSql(RESULT_PARQUET)})`,
    )
    .catch((err: unknown) => {
      throw queryFailure(err);
    });
}

/** Starts a statement (DuckDB locked down, its views made). */
async function started(conn: DuckDBConnection, sql: string): Promise<DuckDBResult> {
  // Run at once rather than prepared first: DuckDB binds a prepared statement over Parquet files
  // again when it runs, and binding the view's files is most of a short statement's time. It is a
  // SELECT already (parsed: DuckDB serializes nothing else), and DuckDB is locked down; the type
  // is checked again on the result, before a row is read.
  const result = await conn.stream(sql).catch((err: unknown) => {
    throw queryFailure(err);
  });
  if (result.statementType !== StatementType.SELECT) throw new StoreQueryError('refused', READ_ONLY);
  return result;
}

/**
 * The file of `listed` (the views') that a failure names and that exists no more, or null. Once DuckDB is
 * locked down, a view's file removed before DuckDB opens it fails as a refusal (DuckDB looks for it as a
 * directory, `<file>/**\/*.parquet`, and may not): it went away all the same.
 */
function goneFile(err: unknown, listed: readonly string[]): string | null {
  const texts: string[] = [];
  for (let e: unknown = err; e instanceof Error && texts.length < 4; e = e.cause) texts.push(e.message);
  return listed.find((file) => texts.some((t) => t.includes(`"${file}`)) && !existsSync(file)) ?? null;
}

/**
 * The history file a failure names that exists no more (removed after it was listed), or null. Only a
 * path under the history's root counts, and only when it is gone now: any other failure is the
 * statement's own.
 */
function vanishedFile(err: unknown, root: string | null): string | null {
  // A file DuckDB was refused (read_parquet of the history's own glob) did not go away.
  if (root === null || (err instanceof StoreQueryError && err.kind === 'refused')) return null;
  const texts: string[] = [];
  for (let e: unknown = err; e instanceof Error && texts.length < 4; e = e.cause) texts.push(e.message);
  const under = normalize(root) + sep;
  for (const text of texts)
    for (const [, path] of text.matchAll(/["']([^"'\n]+\.parquet)["']/g))
      if (path !== undefined && normalize(path).startsWith(under) && !existsSync(path)) return path;
  return null;
}

/** A file removed under a statement that had already handed rows on: it cannot start again by itself. */
const raced = (file: string, cause: unknown): StoreQueryError =>
  new StoreQueryError(
    'failed',
    `query failed: the history changed while the query read it (${file} was removed or replaced); run it again`,
    { cause },
  );

/** A SELECT's text as DuckDB writes its parse tree back. */
async function canonicalSql(conn: DuckDBConnection, sql: string): Promise<string> {
  const reader = await conn.runAndReadAll(
    `SELECT json_deserialize_sql(json_serialize_sql(${sqlStringLiteral(sql)}))`,
  );
  return String(reader.getRows()[0]?.[0]);
}

/** The statement's parse tree (its `statements`); a statement DuckDB cannot serialize is not a SELECT. */
async function parsed(conn: DuckDBConnection, sql: string): Promise<unknown[]> {
  const tree = await serializedSql(conn, sql);
  if (tree.error) {
    if (/only select/i.test(tree.error_message ?? '')) throw new StoreQueryError('refused', READ_ONLY);
    throw new StoreQueryError(
      'failed',
      `query failed: ${tree.error_message ?? 'cannot parse the statement'}`,
    );
  }
  return tree.statements;
}

/** The streaming result as a cursor of store-like values, each fetch on the budget. */
function resultCursor(result: DuckDBResult, budget: WorkBudget, root: string | null): QueryCursor {
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
            const gone = vanishedFile(err, root);
            throw gone !== null ? raced(gone, err) : queryFailure(err);
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
