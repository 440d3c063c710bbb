// Who may use the console: anyone on this machine when it listens on loopback without a token; with a
// token (EDGELOG_CONSOLE_TOKEN), only a request bearing it (`Authorization: Bearer …`) or the session
// cookie the login gives. Compared in constant time; the token itself never leaves the process (the
// cookie holds an HMAC of it) and never reaches a log line.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopback } from './listen-address.js';
import { ConsoleRequestError } from './request-error.js';

/** The environment variable holding the console's token. */
export const TOKEN_ENV = 'EDGELOG_CONSOLE_TOKEN';

/** Shorter tokens are refused at start: they can be guessed. */
export const MIN_TOKEN_LENGTH = 16;

export const SESSION_COOKIE = 'edgelog_session';

/** Equal strings, in time that does not depend on where they differ (both hashed to one length first). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The session cookie's value for a token: an HMAC, so the cookie cannot be turned back into it. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('edgelog console session').digest('base64url');
}

/**
 * Throws a RangeError when the console would be open to others without a token, or the token is weak;
 * returns the token (or null on loopback without one).
 */
export function checkStartup(host: string, token: string | undefined, tokenEnv = TOKEN_ENV): string | null {
  if (token === undefined || token === '') {
    if (isLoopback(host)) return null;
    throw new RangeError(
      `refusing to listen on ${host} without a token: set ${tokenEnv} (at least ${MIN_TOKEN_LENGTH} characters), or listen on 127.0.0.1`,
    );
  }
  if (token.length < MIN_TOKEN_LENGTH)
    throw new RangeError(`${tokenEnv} is too short: at least ${MIN_TOKEN_LENGTH} characters`);
  return token;
}

/**
 * The CSRF token a page sends with a write (`X-Edgelog-CSRF`): an HMAC of the console's token, which a
 * page of this origin reads from GET /api/v1/session and another site cannot (the same-origin policy).
 */
export function csrfValue(token: string): string {
  return createHmac('sha256', token).update('edgelog console csrf').digest('base64url');
}

export const CSRF_HEADER = 'x-edgelog-csrf';

/**
 * Throws unless a write may go ahead: the console has a token (a loopback console without one only
 * reads), and the request bears it as a bearer (a script's, never sent by a browser on its own), or
 * bears the session cookie from a page of this console: its Origin this console's, and the CSRF token
 * in its header. A browser sends the SameSite=Strict cookie on no other site's request, and no other
 * site can read the CSRF token: each of the three stops a cross-site write by itself.
 */
export function authorizeWrite(req: IncomingMessage, token: string | null): void {
  if (token === null)
    throw new ConsoleRequestError(
      403,
      'forbidden',
      `this console has no token, so it only reads: set ${TOKEN_ENV} to make silences here, or use edgelog alerts silence`,
    );
  const auth = req.headers.authorization;
  if (auth !== undefined && /^Bearer /i.test(auth) && sameSecret(auth.slice(7).trim(), token)) return;
  authorize(req, token);
  if (!sameOrigin(req))
    throw new ConsoleRequestError(403, 'forbidden', 'a write from another site (its Origin) is refused');
  const csrf = req.headers[CSRF_HEADER];
  if (typeof csrf !== 'string' || !sameSecret(csrf, csrfValue(token)))
    throw new ConsoleRequestError(403, 'forbidden', "a write without this console's CSRF token is refused");
}

/** The request's Origin is this console's own (a browser names the page's origin on every POST). */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return (
    origin !== undefined &&
    host !== undefined &&
    (origin === `http://${host}` || origin === `https://${host}`)
  );
}

/** A cookie's value from the Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Throws 401 unless the request bears the token or the session cookie (no token: everyone may). */
export function authorize(req: IncomingMessage, token: string | null): void {
  if (token === null) return;
  const auth = req.headers.authorization;
  if (auth !== undefined && /^Bearer /i.test(auth) && sameSecret(auth.slice(7).trim(), token)) return;
  const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
  if (cookie !== undefined && sameSecret(cookie, sessionValue(token))) return;
  throw new ConsoleRequestError(401, 'unauthorized', 'this console needs its token: log in at /login.html');
}
