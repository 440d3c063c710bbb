import { EdgelogError } from '../errors/edgelog-error.js';

/**
 * A query edgelog will not run (it would write, holds several statements, returns no rows) or that
 * SQLite rejected; the message is one line for the terminal, SQLite's own error is the `cause`.
 */
export class QueryError extends EdgelogError {
  override name = 'QueryError';
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, { retryable: false, ...opts });
  }
}
