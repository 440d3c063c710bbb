// Pure: API log entries → archive rows. The embedded `log` JSON is parsed for its common keys; an entry
// whose `log` is not a JSON object is kept all the same, with its raw text and the reason. A row no
// store can hold (values/storable.ts: U+0000, a lone surrogate, a key too long) is not appended: the
// append says why, and the caller quarantines the entry.
import type { RawLogEntry } from '../api/index.js';
import {
  emptyOriginBatch,
  emptyShieldBatch,
  ORIGIN_FIELDS,
  originRowAt,
  SHIELD_FIELDS,
  shieldRowAt,
  type Columns,
  type OriginBatch,
  type OriginRow,
  type ShieldBatch,
  type ShieldRow,
} from '../store/rows.js';
import {
  keyProblem,
  rowProblem,
  storableMessage,
  storableStatusCode,
  textProblem,
} from '../values/storable.js';

type Parsed = { obj: Record<string, unknown>; error: null } | { obj: null; error: string | null };

const NO_LOG: Parsed = { obj: null, error: null };

/** Parses an embedded log. A missing log is not an error; text that is not a JSON object is. */
export function parseEmbeddedLog(text: string | null): Parsed {
  if (text === null) return NO_LOG;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // The message quotes the text, perhaps half a surrogate pair of it: made storable (storable.ts).
    return { obj: null, error: storableMessage(`log is not valid JSON: ${(err as Error).message}`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      obj: null,
      error: `log is JSON but not an object (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`,
    };
  }
  return { obj: value as Record<string, unknown>, error: null };
}

function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** A text (or NULL) a store holds as it is. */
const storable = (v: string | null): boolean => v === null || textProblem('', v) === null;
const fitsKey = (logId: string): boolean => keyProblem(logId) === null;

/**
 * An HTTP status from a number or a numeric string (labels carry it as a string, the log as a number):
 * 0–9999, else null (the log keeps what was sent).
 */
export const statusCodeOf = storableStatusCode;

/**
 * Keeps the row just appended to `b` when a store can hold it (`fine`, checked by the caller on its
 * values, the hot path); otherwise removes it and returns why.
 */
function vetLast<Row>(
  b: Columns<Row>,
  fields: ReadonlyArray<keyof Row & string>,
  fine: boolean,
): string | null {
  if (fine) return null;
  const columns = b as unknown as Record<string, unknown[]>;
  const problem = rowProblem(columns, fields, columns.logId!.length - 1);
  if (problem !== null) for (const f of fields) columns[f]!.pop();
  return problem;
}

/**
 * Appends an entry's row to a batch (the hot path: no row object in between). Returns null, or why no
 * store can hold the row (then nothing is appended).
 */
export function appendOriginEntry(b: OriginBatch, entry: RawLogEntry): string | null {
  const { obj, error } = parseEmbeddedLog(entry.log);
  const labels = entry.labels;
  const requestUrl = obj ? str(obj.RequestUrl) : null;
  const message = obj ? str(obj.Message) : null;
  const errorCode = (obj ? str(obj.ErrorCode) : null) ?? labels?.ErrorCode ?? null;
  const serverZone = labels?.ServerZone ?? null;
  b.logId.push(entry.logId);
  b.timestamp.push(entry.timestamp);
  b.requestUrl.push(requestUrl);
  b.message.push(message);
  b.errorCode.push(errorCode);
  b.statusCode.push((obj ? statusCodeOf(obj.StatusCode) : null) ?? statusCodeOf(labels?.StatusCode));
  b.serverZone.push(serverZone);
  b.log.push(entry.log);
  // JSON.stringify escapes what a store cannot hold; the parse error is written storable.
  b.labels.push(labels ? JSON.stringify(labels) : null);
  b.parseError.push(error);
  const fine =
    fitsKey(entry.logId) &&
    fine4(entry.logId, requestUrl, message, errorCode) &&
    fine4(serverZone, entry.log, null, null);
  return vetLast(b, ORIGIN_FIELDS, fine);
}

/** Four values a store holds as they are (storable.ts storable): the hot path's check, no loop. */
function fine4(a: string | null, b: string | null, c: string | null, d: string | null): boolean {
  return storable(a) && storable(b) && storable(c) && storable(d);
}

/** The row of an entry (tests, tools); throws when no store can hold it. */
export function parseOriginEntry(entry: RawLogEntry): OriginRow {
  const b = emptyOriginBatch();
  const problem = appendOriginEntry(b, entry);
  if (problem !== null) throw new RangeError(problem);
  return originRowAt(b, 0);
}

const SHIELD_LABELS = new Set([
  'asn',
  'country',
  'ruleId',
  'severity',
  'method',
  'ruleGroup',
  'status',
  'serverZone',
]);

function extraLabels(labels: Record<string, string | null>): string | null {
  let extra: Record<string, string | null> | null = null;
  for (const key in labels) {
    // Prototype-less: a label named `__proto__` is a key like any other.
    if (!SHIELD_LABELS.has(key)) (extra ??= Object.create(null) as typeof extra)![key] = labels[key] ?? null;
  }
  return extra ? JSON.stringify(extra) : null;
}

/** Appends an entry's row to a batch, or returns why no store can hold it (see appendOriginEntry). */
export function appendShieldEntry(b: ShieldBatch, entry: RawLogEntry): string | null {
  const { obj, error } = parseEmbeddedLog(entry.log);
  const labels = entry.labels;
  const asn = labels?.asn ?? null;
  const country = labels?.country ?? null;
  const ruleId = labels?.ruleId ?? null;
  const severity = labels?.severity ?? null;
  const method = labels?.method ?? null;
  const ruleGroup = labels?.ruleGroup ?? null;
  const status = labels?.status ?? null;
  const serverZone = labels?.serverZone ?? null;
  const url = obj ? str(obj.Url) : null;
  const remoteIp = obj ? str(obj.RemoteIp) : null;
  const message = obj ? str(obj.Message) : null;
  b.logId.push(entry.logId);
  b.timestamp.push(entry.timestamp);
  b.asn.push(asn);
  b.country.push(country);
  b.ruleId.push(ruleId);
  b.severity.push(severity);
  b.method.push(method);
  b.ruleGroup.push(ruleGroup);
  b.status.push(status);
  b.serverZone.push(serverZone);
  b.url.push(url);
  b.remoteIp.push(remoteIp);
  b.message.push(message);
  b.log.push(entry.log);
  b.parseError.push(error);
  // JSON.stringify escapes what a store cannot hold; the parse error is written storable.
  b.extraLabels.push(labels ? extraLabels(labels) : null);
  const fine =
    fitsKey(entry.logId) &&
    fine4(entry.logId, asn, country, ruleId) &&
    fine4(severity, method, ruleGroup, status) &&
    fine4(serverZone, url, remoteIp, message) &&
    storable(entry.log);
  return vetLast(b, SHIELD_FIELDS, fine);
}

/** The row of an entry (tests, tools); throws when no store can hold it. */
export function parseShieldEntry(entry: RawLogEntry): ShieldRow {
  const b = emptyShieldBatch();
  const problem = appendShieldEntry(b, entry);
  if (problem !== null) throw new RangeError(problem);
  return shieldRowAt(b, 0);
}
