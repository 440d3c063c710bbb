// The console's one warm archive session is used by one statement at a time: a statement waits its
// turn here (the wait does not count against its time bound, which starts when it runs), and a full
// queue is answered at once with 503 rather than left to pile up.
import type { QueryStore } from '../store/store.js';
import { ConsoleRequestError } from './request-error.js';

export interface QueryLane extends QueryStore {
  /** Statements running or waiting. */
  readonly pending: number;
}

/** Statements that may wait behind the running one. @defaultValue 32 */
export const MAX_WAITING = 32;

/** `queries`, one statement at a time, in the order they came. */
export function queryLane(queries: QueryStore, maxWaiting = MAX_WAITING): QueryLane {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  return {
    get pending() {
      return pending;
    },
    readOnly(sql, opts, consume) {
      if (pending > maxWaiting)
        return Promise.reject(
          new ConsoleRequestError(
            503,
            'busy',
            `${pending} statements are running or waiting; try again shortly`,
          ),
        );
      pending++;
      const run = tail.then(() => queries.readOnly(sql, opts, consume));
      const done = run.finally(() => pending--);
      // The next statement waits for this one to end, however it ends.
      tail = done.catch(() => undefined);
      return done;
    },
  };
}
