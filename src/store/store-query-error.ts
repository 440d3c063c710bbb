// A read-only query the store refused or could not finish; the query layer turns it into its own
// QueryError / QueryTimeoutError (src/query/), which the store does not import (it is the lower layer).
import { EdgelogError } from '../errors/index.js';

/** `stopped`: the caller's signal ended it (its statement cancelled on the server). */
export type StoreQueryFailure = 'refused' | 'failed' | 'timeout' | 'stopped';

export class StoreQueryError extends EdgelogError {
  override name = 'StoreQueryError';
  constructor(
    readonly kind: StoreQueryFailure,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, { retryable: false, ...opts });
  }
}
