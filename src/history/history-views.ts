// The views the history engine answers from: for each table, the published Parquet files of its
// zone-days UNION ALL the store's rows of every other zone-day, so each archived entry appears exactly
// once and is visible as soon as its page is stored.
//
// For each table: list the published files, read the store's other rows (one statement, one snapshot)
// into a DuckDB table by chunks, list the files again and drop the rows of any zone-day published
// meanwhile (its file holds them; the store may have pruned them by now, never before the file existed),
// then a view unions the two. `time` is a TIMESTAMP computed from `timestamp` (UTC).
import { DuckDBDataChunk, type DuckDBConnection } from '@duckdb/node-api';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryStore, QueryValue } from '../store/store.js';
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';
import { fileParts } from './file-parts.js';
import { dayKey, publishedDays, type PublishedDay } from './published-days.js';
import { mayHoldRows, type TimestampBounds } from './statement-bounds.js';
import { inScope, storeRowsSql, zoneDayPredicate, type ZoneDayScope } from './store-rows-sql.js';
import type { WorkBudget } from './work-budget.js';

/** The schema holding the store's rows inside DuckDB (the views in `main` read it). */
const STORE_SCHEMA = 'edgelog_store';
/** Rows read from the store and appended to DuckDB at a time. */
const APPEND_ROWS = 2048;

export interface HistoryViewsOptions {
  /** The history directory (historyPath); null: no history, every row comes from the store. */
  root: string | null;
  /** The store's read-only query path: the rows of zone-days the history does not hold come from it. */
  store: QueryStore;
  /** Only these zone-days (export's --from/--to/--zone). @defaultValue every zone-day */
  scope?: ZoneDayScope;
  /** Told, per table, how many rows came from the store and in how long (bench, tests). */
  onStoreRows?: (table: HistoryTable, rows: number, ms: number) => void | Promise<void>;
  /**
   * Per table, the timestamps the statement can see (statement-bounds.ts): the view leaves out the files
   * whose markers lie outside them, unbound. @defaultValue every file
   */
  bounds?: Partial<Record<HistoryTable, TimestampBounds | null>>;
  /**
   * Per table, whether the parts of its files carry their guards (file-parts.ts): false when the
   * statement cannot use them (statement-bounds.ts guardsMayHelp). @defaultValue true
   */
  guards?: Partial<Record<HistoryTable, boolean>>;
}

/** Creates `main.<table>` for each of `tables`; returns the files the views read. */
export async function createHistoryViews(
  conn: DuckDBConnection,
  opts: HistoryViewsOptions,
  tables: readonly HistoryTable[],
  budget: WorkBudget,
): Promise<string[]> {
  const files: string[] = [];
  if (tables.length > 0) await conn.run(`CREATE SCHEMA IF NOT EXISTS ${STORE_SCHEMA}`);
  for (const table of tables) files.push(...(await createView(conn, opts, table, budget)));
  return files;
}

async function createView(
  conn: DuckDBConnection,
  opts: HistoryViewsOptions,
  table: HistoryTable,
  budget: WorkBudget,
): Promise<string[]> {
  const scope = opts.scope ?? {};
  const { columns, timeFrom } = HISTORY_COLUMNS[table];
  const root = opts.root;
  const listed = async (known?: readonly PublishedDay[]) =>
    root === null ? [] : (await publishedDays(root, table, known)).filter((d) => inScope(scope, d));
  const before = await listed();
  const stored = `${STORE_SCHEMA}.${table}`;
  await conn.run(`CREATE TABLE ${stored} (${columns.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  const started = performance.now();
  // The statement sees no row outside its own bounds on `timestamp`, from the store or from a file.
  const bounds = opts.bounds?.[table] ?? null;
  const sql = storeRowsSql(table, before, scope, bounds);
  const rows = await appendStoreRows(conn, opts.store, table, sql, budget);
  await opts.onStoreRows?.(table, rows, performance.now() - started);

  // A zone-day published while the store was read: its file holds its rows, which were read above too.
  const seen = new Set(before.map(dayKey));
  // Only days published since are looked for: a file of `before` is still the day's (it is only ever
  // replaced by one holding every row of it, time-range.ts).
  const after = await listed(before);
  const twice = zoneDayPredicate(
    table,
    after.filter((d) => !seen.has(dayKey(d))),
  );
  if (twice !== null) await conn.run(`DELETE FROM ${stored} WHERE ${twice}`);

  // Files no row of which the statement can see: not in the view at all (their rows are not in the
  // store's part either, which leaves out every zone-day of `after`).
  const read = after.filter((d) => mayHoldRows(d.timestamps, bounds));
  const names = columns.map(([n]) => `"${n}"`);
  const list = (from: string) =>
    [...names, ...(timeFrom ? [`epoch_ms("${timeFrom}") AS "time"`] : [])].join(', ') + ` FROM ${from}`;
  const parts = [
    ...fileParts(table, read, opts.guards?.[table] ?? true).map(
      (p) => `SELECT ${list(p.from)}${p.guard === null ? '' : ` WHERE ${p.guard}`}`,
    ),
    `SELECT ${list(stored)}`,
  ];
  await conn.run(`CREATE VIEW main.${table} AS ${parts.join(' UNION ALL ')}`);
  return read.map((d: PublishedDay) => d.file);
}

/** The rows `sql` reads from the store, appended to `<STORE_SCHEMA>.<table>` a chunk at a time. */
async function appendStoreRows(
  conn: DuckDBConnection,
  store: QueryStore,
  table: HistoryTable,
  sql: string,
  budget: WorkBudget,
): Promise<number> {
  const { columns } = HISTORY_COLUMNS[table];
  const appender = await conn.createAppender(table, STORE_SCHEMA);
  const types = Array.from({ length: columns.length }, (_, i) => appender.columnType(i));
  const bigint = columns.map(([, t]) => t === 'BIGINT');
  let count = 0;
  try {
    await store.readOnly(sql, { timeoutMs: budget.remaining() }, async (cursor) => {
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
    });
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
    throw new StoreQueryError('failed', 'query failed: the store holds a non-integer where one is expected');
  }
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString();
  return String(value);
}
