import { HttpStatusError } from './http-status-error.js';

/** 401/403: the access key is missing, wrong, or lacks access. Retrying will not help. */
export class AuthError extends HttpStatusError {
  override name = 'AuthError';
}
