// The console's one warm archive session is used by one statement at a time: a statement waits its
// turn here (the wait does not count against its time bound, which starts when it runs), and a full
// queue is answered at once with 503 rather than left to pile up. A page's statements (readEach) take
// one turn together, and a download's Parquet file is written in its turn too.
import type { ArchiveQueryStore } from '../history/archive-queries.js';
import { ConsoleRequestError } from './request-error.js';

export interface QueryLane extends ArchiveQueryStore {
  /** Turns running or waiting (a statement, or a page's statements). */
  readonly pending: number;
}

/** Turns that may wait behind the running one. @defaultValue 32 */
export const MAX_WAITING = 32;

/** `queries`, one statement at a time, in the order they came. */
export function queryLane(queries: ArchiveQueryStore, maxWaiting = MAX_WAITING): QueryLane {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    if (pending > maxWaiting)
      return Promise.reject(
        new ConsoleRequestError(503, 'busy', `${pending} queries are running or waiting; try again shortly`),
      );
    pending++;
    const done = tail.then(run).finally(() => pending--);
    // The next statement waits for this one to end, however it ends.
    tail = done.catch(() => undefined);
    return done;
  };
  return {
    get pending() {
      return pending;
    },
    readOnly: (sql, opts, consume) => inTurn(() => queries.readOnly(sql, opts, consume)),
    readEach: (sqls, opts, consume) => inTurn(() => queries.readEach(sqls, opts, consume)),
    toParquet: (sql, file, opts) => inTurn(() => queries.toParquet(sql, file, opts)),
  };
}
