import { EdgelogError } from './edgelog-error.js';

/**
 * `edgelog migrate-store` cannot start or did not end with an exact copy: a source that is not an edgelog
 * archive (or not migrated), a target it cannot reach or that a worker is writing, or a verification
 * that found the two archives different. The message names the fix; it never holds a password.
 */
export class MigrateStoreError extends EdgelogError {
  override name = 'MigrateStoreError';
  constructor(message: string, opts: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { retryable: opts.retryable ?? false, cause: opts.cause });
  }
}
