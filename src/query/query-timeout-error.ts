import { formatDuration } from '../config/duration.js';
import { QueryError } from './query-error.js';

/** The statement ran longer than `edgelog query --timeout` allows and was stopped. */
export class QueryTimeoutError extends QueryError {
  override name = 'QueryTimeoutError';
  constructor(
    readonly timeoutMs: number,
    /** Part of the result was written before the stop (a streaming format). */
    readonly partial: boolean,
  ) {
    super(
      `query stopped after ${formatDuration(timeoutMs)} (--timeout)` +
        (partial ? '; the output above is incomplete' : '') +
        ': narrow it (a WHERE on log_date or timestamp, a LIMIT), or raise --timeout (0 for no bound)',
    );
  }
}
