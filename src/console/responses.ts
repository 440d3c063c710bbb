// Every answer of the console goes out through here, with the same security headers: a strict
// Content-Security-Policy (this origin's files only: no inline script, no eval, no framing), no MIME
// sniffing, no referrer, no caching of archived data. JSON is written with <, >, & and the line
// separators as \u escapes, so no archived text can ever read as markup, whatever a client does with it.
import type { ServerResponse } from 'node:http';
import { EdgelogError } from '../errors/edgelog-error.js';
import { redact } from '../redact.js';
import { ConsoleRequestError } from './request-error.js';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` with the console's own POSTs (the login
  // form, a silence), which the Origin check must then refuse; same-origin still sends nothing elsewhere.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Pure: JSON text with the characters HTML or JavaScript could take for syntax as \u escapes. */
export function inertJson(json: string): string {
  // Outside strings JSON never holds these characters, so replacing them everywhere is exact.
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** `json` is JSON text already (a query's rows are written by the query layer's own encoder). */
export function sendJsonText(res: ServerResponse, json: string, status = 200): void {
  send(res, status, 'application/json; charset=utf-8', inertJson(json));
}

export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  sendJsonText(res, JSON.stringify(value), status);
}

/** What a failure answers: problem details (RFC 9457) with the error's own message, never its stack. */
export interface Problem {
  status: number;
  title: string;
  detail: string;
}

/**
 * Pure: the problem an error becomes. edgelog's own errors say what failed in words meant for people
 * (never a secret; redacted again here): a store that cannot be opened or reached is a 503. Anything else
 * is a 500 without its detail.
 */
export function problemOf(err: unknown): Problem {
  if (err instanceof ConsoleRequestError)
    return { status: err.status, title: err.title, detail: redact(err.message) };
  if (err instanceof EdgelogError)
    return { status: 503, title: 'archive unavailable', detail: redact(err.message) };
  return { status: 500, title: 'internal error', detail: 'the console failed to answer; see its log' };
}

export function sendProblem(
  res: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ type: 'about:blank', ...problem });
  send(res, problem.status, 'application/problem+json; charset=utf-8', inertJson(body), headers);
}
