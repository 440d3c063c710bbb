// Pure: label values, each from a fixed set, so a series is never made per day, URL, token or status.
import { HttpStatusError, NetworkError, ResponseError, TimeoutError } from '../errors/index.js';
import type { RetryReason } from './events.js';

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'error';

export const STATUS_CLASSES: readonly StatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'error'];

/** The class of an HTTP status; `error` when no usable answer came (or a status outside 200–599). */
export function statusClass(status: number | null): StatusClass {
  if (status === null || !Number.isInteger(status) || status < 200 || status > 599) return 'error';
  return `${Math.floor(status / 100)}xx` as StatusClass;
}

export const RETRY_REASONS: readonly RetryReason[] = [
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'bad_body',
  'other',
];

/** Why a retryable failure happened, as a label. */
export function retryReason(err: unknown): RetryReason {
  if (err instanceof HttpStatusError) {
    if (err.status === 429) return 'rate_limited';
    return err.status >= 500 ? 'server_error' : 'other';
  }
  if (err instanceof TimeoutError) return 'timeout';
  if (err instanceof NetworkError) return 'network';
  if (err instanceof ResponseError) return 'bad_body';
  return 'other';
}

/** `value` when it is one of `allowed`, else `other`: an unexpected value never makes a new series. */
export function bounded(value: string, allowed: ReadonlySet<string>): string {
  return allowed.has(value) ? value : 'other';
}
