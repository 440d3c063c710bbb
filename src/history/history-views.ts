// The views the archive's dialect answers from: for each table, the history's parts below the flush
// watermark (the widest where one covers others: parts.ts) UNION ALL the store's rows at or above it, so
// each archived entry appears exactly once and is visible as soon as its page is stored.
//
// For each table: read the watermark and list the parts below it, copy the store's rows at or above it
// (one statement, one snapshot; only the columns the statement names: statement-columns.ts) into a DuckDB
// table by chunks, then read the watermark again: a flush that ended meanwhile may have moved rows just
// copied into parts not listed, so the copy starts over. A view unions the two; `time` is a TIMESTAMP
// computed from `timestamp` (UTC). Parts whose timestamps lie outside what the statement can see
// (statement-bounds.ts) are left out of the view. With `spool`, the store's rows go to a file the view
// scans instead of a DuckDB table (store-spool.ts).
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendStoreRows } from './store-append.js';
import { spooledRows, spoolStoreRows } from './store-spool.js';
import { sqlStringLiteral } from './statement-tables.js';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryStore } from '../store/store.js';
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';
import { fileParts } from './file-parts.js';
import {
  listDays,
  readableFiles,
  type PublishedDay,
  type UnreadableDay,
  type ZoneDayScope,
} from './published-days.js';
import { readWatermark } from './flush-marker.js';
import {
  mayHoldDay,
  mayHoldRows,
  type DayBounds,
  type TimeOrder,
  type TimestampBounds,
} from './statement-bounds.js';
import { storeRowsSql } from './store-rows-sql.js';
import type { WorkBudget } from './work-budget.js';

/** The schema holding the store's rows inside DuckDB (the views in `main` read it). */
const STORE_SCHEMA = 'edgelog_store';

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
   * Per table, the timestamps the statement can see (statement-bounds.ts): the view leaves out the parts
   * whose timestamps (in their names) lie outside them, unbound. @defaultValue every file
   */
  bounds?: Partial<Record<HistoryTable, TimestampBounds | null>>;
  /**
   * Per table, whether the parts of its files carry their guards (file-parts.ts): false when the
   * statement cannot use them (statement-bounds.ts guardsMayHelp). @defaultValue true
   */
  guards?: Partial<Record<HistoryTable, boolean>>;
  /**
   * Per table, the columns the statement reads (statement-columns.ts): only those come from the store,
   * the rest as NULL. @defaultValue every column
   */
  columns?: Partial<Record<HistoryTable, ReadonlySet<string> | null>>;
  /** Per table, the days of `log_date` the statement can see (statement-bounds.ts). @defaultValue every day */
  days?: Partial<Record<HistoryTable, DayBounds | null>>;
  /**
   * Per table, the time order the statement sorts its rows by first (statement-bounds.ts timeOrder): the
   * view lists its files in it, and the store's newer rows first for 'newest'. @defaultValue by day
   */
  order?: Partial<Record<HistoryTable, TimeOrder | null>>;
  /**
   * A directory only the owner may enter: the store's rows go to a file of JSON lines in it that the view
   * scans (store-spool.ts), for a statement that reads them once (export): a DuckDB table of a big tail
   * held far more of the process than its rows. @defaultValue none: a DuckDB table (a statement may read
   * the rows many times, and a table answers that faster)
   */
  spool?: string;
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
  const bounds = opts.bounds?.[table] ?? null;
  const stored = `${STORE_SCHEMA}.${table}`;
  const days = opts.days?.[table] ?? null;
  // One day of log_date: the store is asked for that day's rows only, so each of them holds it, and the
  // view writes it as a constant rather than copy it (a count of the day copies no column).
  const oneDay = days !== null && days.min !== null && days.min === days.max ? days.min : null;
  const named = opts.columns?.[table] ?? null;
  const copied = columns.filter(
    ([n]) => (named === null || named.has(n)) && !(oneDay !== null && n === 'log_date'),
  );
  const copy = new Set(copied.map(([n]) => n));
  // No column named (a count): only how many rows, and the view makes that many rows of NULLs.
  const countOnly = copied.length === 0;
  const spool = countOnly || opts.spool === undefined ? null : join(opts.spool, `${table}.ndjson`);
  if (!countOnly && spool === null)
    await conn.run(`CREATE TABLE ${stored} (${copied.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  for (let attempt = 1; ; attempt++) {
    // The watermark and the parts below it, then the store's rows at or above it (flush-marker.ts).
    const below = root === null ? 0n : readWatermark(root);
    const { files, unreadable } =
      root === null ? { files: [], unreadable: [] } : readableFiles(listDays(root, table, scope), below);
    // A zone-day no reader can read (its parts overlap) fails only the statements that can see it: one
    // whose own filter leaves it out never needed its rows, so it answers (each entry once) without it.
    const seen = unreadable.find((d) => mayHoldDay(d.day, days) && mayHoldRows(d.timestamps, bounds));
    if (seen !== undefined) throw unreadableDay(table, seen);
    const started = performance.now();
    const sql = storeRowsSql(
      table,
      below === 0n ? files : [],
      scope,
      bounds,
      below,
      opts.store.dialect,
      copy,
      days,
    );
    // The relation the view reads the store's rows from: a range of as many rows, the spooled file, or
    // the table they were appended to.
    let rows: number;
    let from: string;
    if (countOnly) {
      rows = await countStoreRows(opts.store, sql, budget);
      from = `range(${rows})`;
    } else if (spool !== null) {
      const spooled = await spoolStoreRows(opts.store, { file: spool, columns: copied }, sql, budget);
      rows = spooled.rows;
      from = spooledRows(spooled);
    } else {
      rows = await appendStoreRows(
        conn,
        opts.store,
        { schema: STORE_SCHEMA, table, columns: copied },
        sql,
        budget,
      );
      from = stored;
    }
    await opts.onStoreRows?.(table, rows, performance.now() - started);
    // A flush that ended meanwhile may have moved rows read above into parts not listed, and a prune
    // may have removed them from the store after: read again. Flushes are seconds apart.
    if (root !== null && readWatermark(root) !== below) {
      if (attempt >= WATERMARK_ATTEMPTS)
        throw new StoreQueryError(
          'failed',
          'query failed: the history kept flushing while the query read it; run it again',
        );
      if (!countOnly && spool === null) await conn.run(`DELETE FROM ${stored}`);
      continue;
    }
    // Files no row of which the statement can see: not in the view at all.
    const read = files.filter((d) => mayHoldRows(d.timestamps, bounds));
    const names = columns.map(([n]) => `"${n}"`);
    const time = timeFrom ? [`epoch_ms("${timeFrom}") AS "time"`] : [];
    const list = (from: string) => [...names, ...time].join(', ') + ` FROM ${from}`;
    // The store's part: the columns copied, NULL for the others (the statement names none of them).
    const storedList = [
      ...columns.map(([n, t]) =>
        copy.has(n)
          ? `"${n}"`
          : n === 'log_date' && oneDay !== null
            ? `${sqlStringLiteral(oneDay)} AS "${n}"`
            : `NULL::${t} AS "${n}"`,
      ),
      ...(timeFrom ? [copy.has(timeFrom) ? time[0]! : 'NULL::TIMESTAMP AS "time"'] : []),
    ].join(', ');
    const order = opts.order?.[table] ?? null;
    const fromFiles = fileParts(table, read, opts.guards?.[table] ?? true, order).map(
      (p) => `SELECT ${list(p.from)}${p.guard === null ? '' : ` WHERE ${p.guard}`}`,
    );
    // The store's rows are those of the newest batches.
    const fromStore = `SELECT ${storedList} FROM ${from}`;
    const parts = order === 'newest' ? [fromStore, ...fromFiles] : [...fromFiles, fromStore];
    await conn.run(`CREATE VIEW main.${table} AS ${parts.join(' UNION ALL ')}`);
    return read.map((d: PublishedDay) => d.file);
  }
}

/** The failure of a statement that can see a zone-day whose parts overlap: where, why, and what to run. */
function unreadableDay(table: HistoryTable, d: UnreadableDay): StoreQueryError {
  const zone = d.source === undefined ? `zone ${d.zone}` : `${d.source} zone ${d.zone}`;
  return new StoreQueryError(
    'failed',
    `query failed: ${table} of ${zone} on ${d.day} cannot be read: its parts ${d.reason}, so which of ` +
      'them holds the rows cannot be told (no row is counted twice, and no day is left out silently); ' +
      '`edgelog compact --verify` reports the day and its parts (docs/HISTORY.md). A statement whose ' +
      'log_date or timestamp filter leaves that day out still answers.',
  );
}

/** How many rows the store's count statement (storeRowsSql with no column) counted. */
async function countStoreRows(store: QueryStore, sql: string, budget: WorkBudget): Promise<number> {
  const [row] = await store.readOnly(sql, { timeoutMs: budget.remaining() }, (cursor) => cursor.next(1));
  const n = Number(row?.[0] ?? 0);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new StoreQueryError('failed', 'query failed: the store counted its rows as no whole number');
  return n;
}

/** Reads of the store a moving watermark may cost a view before it gives up. */
const WATERMARK_ATTEMPTS = 5;
