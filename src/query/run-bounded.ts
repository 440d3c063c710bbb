// `edgelog query` with its time bound: the statement runs here, in the CLI's own process, and stops at
// `--timeout` of working time — between rows by its own check (QueryTimeoutError, exit 1), or, stuck in
// one SQLite step, by the watchdog thread (watchdog.ts says why a thread).
import type { Output } from '../format/output.js';
import { QueryTimeoutError } from './query-timeout-error.js';
import {
  openReadOnlyConnection,
  verifiedRead,
  type SqliteConnection,
} from '../store/read-only-connection.js';
import { runQuery, type QueryOptions, type QueryResult } from './run-query.js';
import { startWatchdog } from './watchdog.js';
import { WorkClock } from './work-clock.js';

/** How long a query may run unless told otherwise: 30 s. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

export interface QueryRequest extends QueryOptions {
  path: string;
  sql: string;
}

export interface BoundOptions {
  /**
   * Working time the query may take, ms; 0 for no bound. Time spent waiting for the reader of the
   * output (`| less`) does not count; opening the archive does. @defaultValue DEFAULT_QUERY_TIMEOUT_MS
   */
  timeoutMs?: number;
  /** See WatchdogOptions.graceMs. */
  graceMs?: number;
  /** Reads what else the command tells of the archive, on the query's own connection, before it runs. */
  beforeQuery?: (db: SqliteConnection) => void;
}

/**
 * Opens the archive read-only, runs the request and writes its result to `out`. Throws
 * QueryTimeoutError at the deadline (what was written stays written), the query's own errors, and
 * OutputClosedError when `out` closes.
 */
export async function runBoundedQuery(
  request: QueryRequest,
  out: Output,
  opts: BoundOptions = {},
): Promise<QueryResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const clock = new WorkClock();
  let written = false;
  const message = (partial: boolean) => new QueryTimeoutError(timeoutMs, partial).message;
  const watchdog =
    timeoutMs > 0
      ? startWatchdog({
          timeoutMs,
          message,
          ...(opts.graceMs !== undefined ? { graceMs: opts.graceMs } : {}),
        })
      : undefined;
  const timed: Output = {
    async write(text) {
      clock.pause();
      watchdog?.pause();
      try {
        await out.write(text);
      } finally {
        if (!written) watchdog?.written();
        written = true;
        watchdog?.resume();
        clock.resume();
      }
    },
  };
  const check = () => {
    if (timeoutMs > 0 && clock.elapsed() > timeoutMs) throw new QueryTimeoutError(timeoutMs, written);
  };
  try {
    const conn = openReadOnlyConnection(request.path);
    try {
      opts.beforeQuery?.(conn.db);
      return await verifiedRead(conn, timed, (db, o) => runQuery(db, request.sql, { ...request, check }, o));
    } finally {
      conn.db.close();
    }
  } finally {
    await watchdog?.stop();
  }
}
