// What a handler answers, and the error body shapes of API.md section 7. `echo` is the AccessKey to
// repeat in an error body (the echoKey knob); undefined leaves every body as the API documents it.
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

/** A message with the echoed key appended (unchanged without one). */
export function echoed(message: string, echo: string | undefined): string {
  return echo === undefined ? message : `${message} (AccessKey: ${echo})`;
}

/** `,"message":"…"` naming the echoed key, or nothing. */
export function echoField(status: number, echo: string | undefined): string {
  return echo === undefined
    ? ''
    : `,"message":${q(echoed(`the request failed with status ${status}`, echo))}`;
}

export function json(status: number, body: string, entries?: number): Reply {
  return { status, body, contentType: JSON_TYPE, ...(entries !== undefined ? { entries } : {}) };
}

/** `{"statusCode":N}`, the bare error body of most operations (with a "message" when echoing). */
export function statusOnly(status: number, echo?: string): Reply {
  return json(status, `{"statusCode":${status}${echoField(status, echo)}}`);
}

/** An RFC 9457 problem detail, as the Shield event log and video operations send. */
export function problem(status: 400 | 401 | 404, detail: string, instance: string, echo?: string): Reply {
  const [title, section] = TITLES[status]!;
  return {
    status,
    contentType: PROBLEM_TYPE,
    body:
      `{"type":"https://tools.ietf.org/html/rfc9110#section-${section}","title":"${title}","status":${status},` +
      `"detail":${q(echoed(detail, echo))},"instance":${q(instance)}}`,
  };
}

/** The inline error object of a successful Shield answer. */
export const INLINE_OK = '{"success":true,"message":null,"errorKey":null}';

/** An inline error object reporting a failure inside a 2xx. */
export function inlineFailure(errorKey: string, message: string, echo?: string): string {
  return `{"success":false,"message":${q(echoed(message, echo))},"errorKey":${q(errorKey)}}`;
}

export const UNKNOWN_SHIELD_ZONE = 'not_found_or_unauthorised_access.shieldzone';
export const WINDOW_EXPIRED = 'invalid_datetime_window.event_logs';

/** The `html` fault: a 200 maintenance page where JSON was expected (a proxy or CDN in front of the API). */
export function maintenancePage(): Reply {
  return {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body:
      '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Down for maintenance</title></head>\n' +
      '<body>\n<h1>We&rsquo;ll be back soon</h1>\n' +
      '<p>The API is undergoing scheduled maintenance. Please try again in a few minutes.</p>\n</body>\n</html>\n',
  };
}
