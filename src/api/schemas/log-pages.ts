// Origin error log answers (2.5) and Shield event log pages (2.9). These are the hot path (millions of
// entries a day), so they are checked by hand in one pass instead of with zod, which measured at
// ~1.6 µs per entry, as much as JSON.parse itself.
//
// Two levels, because one bad entry must not cost the rest of a page (API-NOTES: nearly every field
// may be null). The answer's outer shape (an object; `logs` an array or null; paging fields of their
// types) is checked as a whole: when it is broken, nothing on the page can be trusted, and a ShapeError
// names the field. Each entry is then checked on its own: one with a usable key (a non-empty `logId`
// and an integer millisecond `timestamp`) is kept, its odd fields normalised without loss; one without
// is set aside with its JSON and the reason (keyedEntry). Nothing here recurses over an entry's values:
// one nested 20,000 levels deep is set aside with a reason (values/storable.ts), not a stack overflow.
import { jsonText } from '../../values/json-text.js';
import { MAX_NESTING, nestedDeeperThan, nestingProblem } from '../../values/storable.js';

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

/**
 * Label values are strings or null; scalars keep their text and nested values their JSON. The labels
 * object is left as it came (a copy is made when a value changes: a rejected entry keeps its JSON as
 * received), and every key is kept, `__proto__` too. Undefined when a value is nested too deep to keep.
 */
function normaliseLabels(value: unknown): Record<string, string | null> | null | undefined {
  if (value === undefined || value === null) return null;
  // Not an object at all: kept whole under one key rather than dropped.
  if (!isObject(value)) {
    if (nestedDeeperThan(value)) return undefined;
    return { [RAW_LABELS_KEY]: JSON.stringify(value) };
  }
  let copy: Record<string, string | null> | null = null;
  for (const key in value) {
    const v = value[key];
    if (typeof v === 'string' || v === null) {
      if (copy) copy[key] = v;
      continue;
    }
    // A prototype-less copy: assigning `__proto__` there makes a key, not a prototype.
    copy ??= copyUpTo(value, key);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') copy[key] = String(v);
    else if (nestedDeeperThan(v, MAX_NESTING - 1)) return undefined;
    else copy[key] = JSON.stringify(v) ?? null;
  }
  return copy ?? (value as Record<string, string | null>);
}

/** The keys of `labels` before `stop`, in a prototype-less object. */
function copyUpTo(labels: Record<string, unknown>, stop: string): Record<string, string | null> {
  const copy = Object.create(null) as Record<string, string | null>;
  for (const key in labels) {
    if (key === stop) break;
    copy[key] = labels[key] as string | null;
  }
  return copy;
}

/** Where labels that are not an object are kept (as their JSON text). */
export const RAW_LABELS_KEY = '$raw';

/**
 * Checks one entry: the entry with a usable key, normalised (a missing `log` or `labels` is null, a
 * non-string `log` its JSON text, odd label values text), or why it has none. The entry itself is left
 * as it came, so that a rejected one keeps its JSON.
 */
export function keyedEntry(entry: unknown): RawLogEntry | string {
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
  let text: string | null;
  if (log === undefined || log === null) text = null;
  else if (typeof log === 'string') text = log;
  else {
    const deep = nestingProblem('log', log);
    if (deep !== null) return deep;
    text = JSON.stringify(log);
  }
  const labels = normaliseLabels(entry.labels);
  if (labels === undefined) return `labels: nested deeper than ${MAX_NESTING} levels`;
  return { logId, timestamp, log: text, labels };
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
    const keyed = keyedEntry(entry);
    if (typeof keyed !== 'string') kept.push(keyed);
    else rejected.push({ position: i, raw: jsonText(entry), reason: keyed });
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
