// A read-only query the store refused or could not finish; the query layer turns it into its own
// QueryError / QueryTimeoutError (src/query/), which the store does not import (it is the lower layer).
import { EdgelogError } from '../errors/index.js';

export type StoreQueryFailure = 'refused' | 'failed' | 'timeout';

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
