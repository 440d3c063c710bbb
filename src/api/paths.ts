// Pure URL building for the seven operations: arguments are checked before anything is sent, and every
// path segment is percent-encoded (continuation tokens may hold / + = ? # % &).
import { UsageError } from '../errors/index.js';
import { displayUrl } from '../redact.js';
import { parseDay, toApiDate, type Day } from '../time/utc-day.js';

export interface ApiHosts {
  baseUrl: string;
  originLogUrl: string;
  videoUrl: string;
}

export type OperationName =
  | 'videoPlayData'
  | 'originErrorLogs'
  | 'edgeScript'
  | 'apiGuardianMetrics'
  | 'ddosEnums'
  | 'shieldEventLogs'
  | 'rateLimit';

// A record, so that the compiler refuses a list that misses or invents an operation.
const OPERATION_SET: Record<OperationName, true> = {
  videoPlayData: true,
  originErrorLogs: true,
  edgeScript: true,
  apiGuardianMetrics: true,
  ddosEnums: true,
  shieldEventLogs: true,
  rateLimit: true,
};

/** Every operation, e.g. the bounded `operation` label of the request metrics. */
export const OPERATIONS = Object.keys(OPERATION_SET) as OperationName[];

/** Checks an id: a positive safe integer (numbers or digit strings from the command line). */
export function checkId(name: string, value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return n;
}

function checkDay(value: Day | string): Day {
  return parseDay(value);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` holds no lone surrogate, i.e. it can be encoded as UTF-8 (and percent-encoded). */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** A path segment, percent-encoded (`.` and `..` too, see requestPath). */
export function encodeSegment(segment: string | number): string {
  const raw = String(segment);
  // encodeURIComponent would throw a bare "URI malformed" on a lone surrogate.
  if (!isWellFormed(raw))
    throw new UsageError(`path segment ${JSON.stringify(raw)} is not well-formed Unicode`);
  const text = encodeURIComponent(raw);
  return text === '.' || text === '..' ? text.replaceAll('.', '%2E') : text;
}

// URLs whose path differs from what the WHATWG parser made of it, with the path to send.
const rawPaths = new WeakMap<URL, string>();

/**
 * The path and query to send for `url`. A continuation token may be `.` or `..`: as a segment, the URL
 * parser takes those for dot segments, even percent-encoded (`%2E`), and drops them or the date before
 * them. The request then goes out with the path as built, not as parsed.
 */
export function requestPath(url: URL): string {
  return rawPaths.get(url) ?? `${url.pathname}${url.search}`;
}

function join(host: string, segments: Array<string | number>): URL {
  const base = host.endsWith('/') ? host.slice(0, -1) : host;
  const encoded = segments.map(encodeSegment);
  const url = new URL(`${base}/${encoded.join('/')}`);
  if (encoded.some((s) => s === '%2E' || s === '%2E%2E')) {
    rawPaths.set(url, `${new URL(base).pathname.replace(/\/$/, '')}/${encoded.join('/')}`);
  }
  return url;
}

export function videoPlayDataUrl(
  hosts: ApiHosts,
  libraryId: unknown,
  videoId: string,
  query: { token?: string | undefined; expires?: number | undefined } = {},
): URL {
  const library = checkId('libraryId', libraryId);
  if (typeof videoId !== 'string' || videoId.length === 0)
    throw new UsageError('videoId must be a non-empty string');
  const url = join(hosts.videoUrl, ['library', library, 'videos', videoId, 'play']);
  if (query.token !== undefined) url.searchParams.set('token', query.token);
  if (query.expires !== undefined) {
    if (!Number.isSafeInteger(query.expires) || query.expires < 0) {
      throw new UsageError(`expires must be a non-negative integer (Unix seconds), got ${query.expires}`);
    }
    url.searchParams.set('expires', String(query.expires));
  }
  return url;
}

export function originErrorLogsUrl(hosts: ApiHosts, pullZoneId: unknown, day: Day | string): URL {
  return join(hosts.originLogUrl, [checkId('pullZoneId', pullZoneId), toApiDate(checkDay(day))]);
}

export function edgeScriptUrl(hosts: ApiHosts, id: unknown): URL {
  return join(hosts.baseUrl, ['compute', 'script', checkId('script id', id)]);
}

export function apiGuardianMetricsUrl(hosts: ApiHosts, shieldZoneId: unknown): URL {
  return join(hosts.baseUrl, [
    'shield',
    'metrics',
    'shield-zone',
    checkId('shieldZoneId', shieldZoneId),
    'api-guardian',
  ]);
}

export function ddosEnumsUrl(hosts: ApiHosts): URL {
  return join(hosts.baseUrl, ['shield', 'ddos', 'enums']);
}

/** The first page is requested with an empty token segment, i.e. a trailing slash (API-NOTES). */
export function shieldEventLogsUrl(
  hosts: ApiHosts,
  shieldZoneId: unknown,
  day: Day | string,
  token = '',
): URL {
  if (typeof token !== 'string') throw new UsageError('continuation token must be a string');
  return join(hosts.baseUrl, [
    'shield',
    'event-logs',
    checkId('shieldZoneId', shieldZoneId),
    toApiDate(checkDay(day)),
    token,
  ]);
}

export function rateLimitUrl(hosts: ApiHosts, id: unknown): URL {
  return join(hosts.baseUrl, ['shield', 'rate-limit', checkId('rate limit id', id)]);
}

/** A URL safe to log or store: credentials and secret query parameters (the video `token`) redacted. */
export function redactUrl(url: URL): string {
  if (!url.searchParams.has('token')) return displayUrl(url);
  const copy = new URL(url.href);
  copy.searchParams.set('token', 'REDACTED');
  return displayUrl(copy);
}
