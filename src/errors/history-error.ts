import { EdgelogError, type ErrorContext } from './edgelog-error.js';

/**
 * The Parquet history could not be written or did not verify. `setting` names what the operator can
 * change (history.path); a full or read-only disk is retryable (a later pass tries again once it is
 * fixed), a file that did not verify is retryable too (it was never published).
 */
export class HistoryError extends EdgelogError {
  override name = 'HistoryError';

  constructor(message: string, opts: { retryable?: boolean; context?: ErrorContext; cause?: unknown } = {}) {
    super(message, { ...opts, retryable: opts.retryable ?? true });
  }
}
