import { EdgelogError } from './edgelog-error.js';

/** A caller passed an invalid argument (an id, a date, an option); nothing was sent or changed. */
export class UsageError extends EdgelogError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, { retryable: false });
  }
}
