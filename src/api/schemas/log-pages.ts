// Origin error log answers (2.5) and Shield event log pages (2.9). These are the hot path (millions of
// entries a day), so they are checked by hand in one pass instead of with zod, which measured at
// ~1.6 µs per entry, as much as JSON.parse itself.
//
// Two levels, because one bad entry must not cost the rest of a page (API-NOTES: nearly every field
// may be null). The answer's outer shape (an object; `logs` an array or null; paging fields of their
// types) is checked as a whole: when it is broken, nothing on the page can be trusted, and a ShapeError
// names the field. Each entry is then checked on its own: one with a usable key (a non-empty `logId`
// and an integer millisecond `timestamp`) is kept, its odd fields normalised without loss; one without
// is set aside with its JSON and the reason (entryProblem).

/** One log entry as the API sends it, after validation. */
export interface RawLogEntry {
  logId: string;
  /** Milliseconds since the epoch, UTC (API-NOTES). */
  timestamp: number;
  /** Serialized JSON object; kept as text, parsed later. */
  log: string | null;
  labels: Record<string, string | null> | null;
}

export interface InlineErrorObject {
  success?: boolean | null;
  message?: string | null;
  errorKey?: string | null;
}

/** Paging fields of a Shield page (and, undocumented, of some origin answers). */
export interface PagingFields {
  hasMoreData: boolean | null;
  continuationToken: string | null;
  startToken: string | null;
}

export interface OriginErrorLogResponse extends PagingFields {
  /** The entries with a usable key, normalised. */
  logs: RawLogEntry[];
  /** The entries without one. */
  rejected: RejectedEntry[];
}

export interface ShieldEventLogPage extends OriginErrorLogResponse {
  errorResponse: InlineErrorObject | null;
}

/** Thrown by the validators; the client wraps it in a ResponseError with request context. */
export class ShapeError extends Error {
  override name = 'ShapeError';
}

const MAX_TIMESTAMP_MS = 8.64e15; // the largest instant a JS Date can hold

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value) ?? ''}`.trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(obj: Record<string, unknown>, key: string, path: string): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string')
    throw new ShapeError(`${path}${key}: expected a string, got ${describe(value)}`);
  return value;
}

function optionalBoolean(obj: Record<string, unknown>, key: string): boolean | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') throw new ShapeError(`${key}: expected a boolean, got ${describe(value)}`);
  return value;
}

/** Label values are strings or null; scalars keep their text and nested values their JSON. */
function normaliseLabels(value: unknown): Record<string, string | null> | null {
  if (value === undefined || value === null) return null;
  // Not an object at all: kept whole under one key rather than dropped.
  if (!isObject(value)) return { [RAW_LABELS_KEY]: JSON.stringify(value) };
  for (const key in value) {
    const v = value[key];
    if (typeof v === 'string' || v === null) continue;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') value[key] = String(v);
    else value[key] = JSON.stringify(v) ?? null;
  }
  return value as Record<string, string | null>;
}

/** Where labels that are not an object are kept (as their JSON text). */
export const RAW_LABELS_KEY = '$raw';

/**
 * Checks one entry. Returns why it cannot be keyed, or null when it can: it is then normalised in place
 * (a missing `log` or `labels` becomes null, a non-string `log` its JSON text, odd label values text).
 */
export function entryProblem(entry: unknown): string | null {
  if (!isObject(entry)) return `the entry is not an object: ${describe(entry)}`;
  const { logId, timestamp, log } = entry;
  if (typeof logId !== 'string' || logId.length === 0) {
    return `logId: expected a non-empty string, got ${logId === undefined ? 'nothing' : describe(logId)}`;
  }
  if (
    typeof timestamp !== 'number' ||
    !Number.isInteger(timestamp) ||
    timestamp < 0 ||
    timestamp > MAX_TIMESTAMP_MS
  ) {
    return `timestamp: expected milliseconds since the epoch, got ${timestamp === undefined ? 'nothing' : describe(timestamp)}`;
  }
  if (log === undefined) entry.log = null;
  else if (log !== null && typeof log !== 'string') entry.log = JSON.stringify(log);
  entry.labels = normaliseLabels(entry.labels);
  return null;
}

/** An entry that could not be keyed, as received. */
export interface RejectedEntry {
  /** Its index in the page's (or the origin answer's) `logs`. */
  position: number;
  /** The entry's JSON text. */
  raw: string;
  reason: string;
}

/** Sorts entries into keyable ones (normalised) and rejected ones. */
export function sortEntries(logs: readonly unknown[]): { logs: RawLogEntry[]; rejected: RejectedEntry[] } {
  const kept: RawLogEntry[] = [];
  const rejected: RejectedEntry[] = [];
  for (let i = 0; i < logs.length; i++) {
    const entry = logs[i];
    const reason = entryProblem(entry);
    if (reason === null) kept.push(entry as RawLogEntry);
    else rejected.push({ position: i, raw: JSON.stringify(entry) ?? 'undefined', reason });
  }
  return { logs: kept, rejected };
}

/** `logs` of an answer: an array, or null/missing for none. Anything else breaks the answer's shape. */
export function entriesOf(body: Record<string, unknown>): unknown[] {
  const value = body.logs;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ShapeError(`logs: expected an array, got ${describe(value)}`);
  return value;
}

export function pagingFields(body: Record<string, unknown>): PagingFields {
  return {
    hasMoreData: optionalBoolean(body, 'hasMoreData'),
    continuationToken: optionalString(body, 'continuationToken', ''),
    startToken: optionalString(body, 'startToken', ''),
  };
}

/** The outer shape of a Shield page, its entries still unchecked. */
export interface ShieldPageEnvelope extends PagingFields {
  logs: unknown[];
  errorResponse: InlineErrorObject | null;
}

export function shieldPageEnvelope(body: unknown): ShieldPageEnvelope {
  if (!isObject(body)) throw new ShapeError(`expected an object, got ${describe(body)}`);
  const errorResponse = body.errorResponse;
  if (errorResponse !== undefined && errorResponse !== null && !isObject(errorResponse)) {
    throw new ShapeError(`errorResponse: expected an object, got ${describe(errorResponse)}`);
  }
  return {
    logs: entriesOf(body),
    ...pagingFields(body),
    errorResponse: (errorResponse as InlineErrorObject | undefined) ?? null,
  };
}

/** The outer shape of an origin answer, its entries still unchecked. */
export function originEnvelope(body: unknown): PagingFields & { logs: unknown[] } {
  if (!isObject(body)) throw new ShapeError(`expected an object, got ${describe(body)}`);
  return { logs: entriesOf(body), ...pagingFields(body) };
}

export function parseOriginErrorLogResponse(body: unknown): OriginErrorLogResponse {
  const { logs, ...paging } = originEnvelope(body);
  return { ...sortEntries(logs), ...paging };
}

export function parseShieldEventLogPage(body: unknown): ShieldEventLogPage {
  const { logs, ...rest } = shieldPageEnvelope(body);
  return { ...sortEntries(logs), ...rest };
}
