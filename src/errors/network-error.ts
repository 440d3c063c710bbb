import { EdgelogError } from './edgelog-error.js';

/** The connection failed or broke (refused, reset, closed mid-body). Retryable; `cause` holds undici's error. */
export class NetworkError extends EdgelogError {
  override name = 'NetworkError';
}
