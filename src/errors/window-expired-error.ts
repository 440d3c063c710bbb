import { HttpStatusError } from './http-status-error.js';

/**
 * The Shield API refused a date outside its retention window (today and the two days before): an HTTP
 * 401 whose errorKey is `invalid_datetime_window.event_logs`. The day is gone from the API, which is not
 * the same thing as bad credentials.
 */
export class WindowExpiredError extends HttpStatusError {
  override name = 'WindowExpiredError';
}
