// `edgelog query` on a store's read-only query path (PostgreSQL: a READ ONLY transaction on a connection
// of its own, each read bounded by statement_timeout): the same formats, limit and errors as runQuery on
// a SQLite file. The server stops a statement that runs too long; between reads the working time (not
// the time the output waits for its reader) is checked against the same bound.
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryCursor, QueryStore } from '../store/store.js';
import type { ArchiveQueryStore } from '../history/archive-queries.js';
import type { Output } from '../format/output.js';
import { QueryError } from './query-error.js';
import { QueryTimeoutError } from './query-timeout-error.js';
import { ENCODERS } from '../format/row-encoders.js';
import { DEFAULT_TABLE_LIMIT, type QueryOptions, type QueryResult } from './run-query.js';
import { queryTable } from './table-output.js';
import type { SqlValue } from '../format/values.js';
import { WorkClock } from './work-clock.js';

/** Rows fetched from the server at a time. */
const BATCH = 1000;
/** Text is handed to the output in chunks of about this many characters. */
const CHUNK = 64 * 1024;

export interface StoreQueryOptions extends Omit<QueryOptions, 'check'> {
  /** Working time the query may take, ms; 0 for no bound. */
  timeoutMs: number;
  /** Stops the query (PostgreSQL: its statement cancelled on the server). @defaultValue none */
  signal?: AbortSignal | undefined;
}

/** Runs `sql` through `queries` and writes the result to `out` (see runQuery for the formats). */
export async function runStoreQuery(
  queries: QueryStore,
  sql: string,
  opts: StoreQueryOptions,
  out: Output,
): Promise<QueryResult> {
  const work = new BoundedWork(opts.timeoutMs);
  try {
    return await queries.readOnly(sql, storeBound(opts), (cursor) => work.consume(cursor, opts, out));
  } catch (err) {
    throw queryErrorOf(err, opts.timeoutMs, work.written);
  }
}

/** One statement of runStoreQueries: its SQL, and its format and limit. */
export interface StoreStatement {
  sql: string;
  opts: Omit<StoreQueryOptions, 'timeoutMs' | 'signal'>;
}

/**
 * Runs `statements` through `queries` over one snapshot of the archive (readEach: one view set-up, then
 * the statements in turn), each one's rows as the text runStoreQuery would write (held in memory: for a
 * page's answers); `bound` bounds them together. The results come in the order of `statements`.
 */
export async function runStoreQueries(
  queries: ArchiveQueryStore,
  statements: readonly StoreStatement[],
  bound: Pick<StoreQueryOptions, 'timeoutMs' | 'signal'>,
): Promise<Array<QueryResult & { text: string }>> {
  const work = new BoundedWork(bound.timeoutMs);
  try {
    return await queries.readEach(
      statements.map((s) => s.sql),
      storeBound(bound),
      async (i, cursor) => {
        // Each round of readEach writes its own text: a round that starts over drops the last one's.
        let text = '';
        const out = { write: (t: string) => Promise.resolve(void (text += t)) };
        return { ...(await work.consume(cursor, statements[i]!.opts, out)), text };
      },
    );
  } catch (err) {
    throw queryErrorOf(err, bound.timeoutMs, false);
  }
}

/** A query's working time (its output's waits left out) against its bound, and whether it wrote yet. */
class BoundedWork {
  private readonly clock = new WorkClock();
  written = false;

  constructor(private readonly timeoutMs: number) {}

  private async write(out: Output, text: string): Promise<void> {
    this.clock.pause();
    try {
      await out.write(text);
    } finally {
      this.written = true;
      this.clock.resume();
    }
  }

  private check(): void {
    if (this.timeoutMs > 0 && this.clock.elapsed() > this.timeoutMs)
      throw new QueryTimeoutError(this.timeoutMs, this.written);
  }

  /** Writes the cursor's rows to `out` in the format (`limit` of them at most, and whether there were more). */
  async consume(
    cursor: QueryCursor,
    opts: Omit<StoreQueryOptions, 'timeoutMs' | 'signal'>,
    out: Output,
  ): Promise<QueryResult> {
    const format = opts.format ?? 'table';
    const limit = opts.limit ?? (format === 'table' ? DEFAULT_TABLE_LIMIT : 0);
    // Reads `limit` rows and one more (to tell whether there are more), a batch at a time.
    const want = (n: number) => (limit === 0 ? BATCH : Math.min(BATCH, limit + 1 - n));
    let batch = (await cursor.next(want(0))) as SqlValue[][];
    const columns = cursor.columns;
    if (format === 'table') {
      const shown: SqlValue[][] = [];
      let more = false;
      for (; batch.length > 0; batch = (await cursor.next(want(shown.length))) as SqlValue[][]) {
        this.check();
        for (const row of batch) {
          if (limit !== 0 && shown.length === limit) more = true;
          else shown.push(row);
        }
        if (more) break;
      }
      await this.write(out, queryTable(columns, shown, more, opts.table));
      return { columns, rows: shown.length, more };
    }
    const encoder = ENCODERS[format](columns, opts.encoding);
    let text = encoder.start();
    let count = 0;
    let more = false;
    for (; batch.length > 0 && !more; batch = (await cursor.next(want(count))) as SqlValue[][]) {
      this.check();
      for (const row of batch) {
        if (limit !== 0 && count === limit) {
          more = true;
          break;
        }
        text += encoder.row(row, count++);
      }
      if (text.length >= CHUNK) {
        await this.write(out, text);
        text = '';
      }
    }
    await this.write(out, text + encoder.end(count));
    return { columns, rows: count, more };
  }
}

/**
 * Writes the rows of `sql` (`limit` at most; 0 is refused) to `file` as Parquet through the archive's
 * query layer, with the same bound and errors as runStoreQuery; returns how many rows.
 */
export async function runStoreQueryToParquet(
  queries: ArchiveQueryStore,
  sql: string,
  opts: Pick<StoreQueryOptions, 'timeoutMs' | 'signal'> & { limit: number },
  file: string,
): Promise<number> {
  try {
    return await queries.toParquet(sql, file, { ...storeBound(opts), limit: opts.limit });
  } catch (err) {
    throw queryErrorOf(err, opts.timeoutMs, false);
  }
}

const storeBound = (opts: Pick<StoreQueryOptions, 'timeoutMs' | 'signal'>) => ({
  timeoutMs: opts.timeoutMs > 0 ? opts.timeoutMs : null,
  signal: opts.signal,
});

/** The store's refusals and failures as the query layer's errors; anything else as it is. */
function queryErrorOf(err: unknown, timeoutMs: number, written: boolean): unknown {
  if (!(err instanceof StoreQueryError)) return err;
  if (err.kind === 'timeout') return new QueryTimeoutError(timeoutMs, written);
  return new QueryError(err.message, { cause: err.cause });
}
