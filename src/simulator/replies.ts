// What a handler answers, and the error body shapes of API.md section 7.
import { q } from './json-text.js';

export interface Reply {
  status: number;
  /** The body: one string, or chunks produced while writing (a whole origin day is streamed). */
  body: string | Iterable<string>;
  contentType?: string;
  headers?: Record<string, string>;
  /** Log entries in the body, for stats. */
  entries?: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

const TITLES: Record<number, readonly [string, string]> = {
  400: ['Bad Request', '15.5.1'],
  401: ['Unauthorized', '15.5.2'],
  404: ['Not Found', '15.5.5'],
};

export function json(status: number, body: string, entries?: number): Reply {
  return { status, body, contentType: JSON_TYPE, ...(entries !== undefined ? { entries } : {}) };
}

/** `{"statusCode":N}`, the bare error body of most operations. */
export function statusOnly(status: number): Reply {
  return json(status, `{"statusCode":${status}}`);
}

/** An RFC 9457 problem detail, as the Shield event log and video operations send. */
export function problem(status: 400 | 401 | 404, detail: string, instance: string): Reply {
  const [title, section] = TITLES[status]!;
  return {
    status,
    contentType: PROBLEM_TYPE,
    body:
      `{"type":"https://tools.ietf.org/html/rfc9110#section-${section}","title":"${title}","status":${status},` +
      `"detail":${q(detail)},"instance":${q(instance)}}`,
  };
}

/** The inline error object of a successful Shield answer. */
export const INLINE_OK = '{"success":true,"message":null,"errorKey":null}';

/** An inline error object reporting a failure inside a 2xx. */
export function inlineFailure(errorKey: string, message: string): string {
  return `{"success":false,"message":${q(message)},"errorKey":${q(errorKey)}}`;
}

export const UNKNOWN_SHIELD_ZONE = 'not_found_or_unauthorised_access.shieldzone';
export const WINDOW_EXPIRED = 'invalid_datetime_window.event_logs';
