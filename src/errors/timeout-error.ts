import { EdgelogError } from './edgelog-error.js';

/** Connecting, waiting for headers, or reading the body took longer than its configured bound. Retryable. */
export class TimeoutError extends EdgelogError {
  override name = 'TimeoutError';
}
