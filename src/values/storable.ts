// Pure: what an archive can hold, decided once for both stores. Ingestion applies these rules while it
// decodes a page (src/ingest/), before any store sees a row, so SQLite and PostgreSQL receive the same
// rows and the same quarantined entries; the stores' writers apply rollupKey. The table in docs/RELIABILITY.md
// ("Every entry archived or accounted for") states each rule and why.
//
// - A number in an integer column is stored when it fits and means something there, and is NULL
//   otherwise; the entry's `log` (or a snapshot's `counters`) keeps the value as the API wrote it.
// - Text is stored exactly, except what no store can hold as text: U+0000 (PostgreSQL's text refuses
//   it) and lone surrogates (not Unicode: PostgreSQL would get U+FFFD, merging two keys into one, and
//   SQLite invalid UTF-8). The entry holding one is quarantined, with its JSON (which escapes both).
// - A key longer than an index can hold (PostgreSQL's btree takes about 2.7 KB per index row) is
//   quarantined too; a long value in a rollup's key is counted under a shortened form of it.
// - Nesting deeper than MAX_NESTING (labels, a `log` that is not a string) is quarantined: JSON.stringify
//   recurses, and 20,000 levels overflow the stack.
import { createHash } from 'node:crypto';
import {
  GUARDIAN_COUNTER_COLUMNS,
  GUARDIAN_COUNTER_NAMES,
  type GuardianCounterColumn,
} from './guardian-counters.js';

/** Status codes are HTTP statuses, written with one to four digits (the labels carry them as text). */
export const MAX_STATUS_CODE = 9999;

/** Bytes (UTF-8) of the longest logId stored; PostgreSQL's unique index holds about 2,670 with the rest of the key. */
export const MAX_KEY_BYTES = 2048;

/** Levels of arrays and objects a label value (or a `log` that is not a string) may hold. */
export const MAX_NESTING = 256;

/** Bytes (UTF-8) of the longest value a rollup keys by as it is; a longer one is shortened (rollupKey). */
export const MAX_ROLLUP_KEY_BYTES = 256;

/** Bytes of a long rollup value kept at the start of its shortened form. */
const ROLLUP_PREFIX_BYTES = 200;

const STATUS_TEXT = /^\d{1,4}$/;

/** An HTTP status from a number or a numeric string (0–9999), else null. */
export function storableStatusCode(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value <= MAX_STATUS_CODE ? value : null;
  }
  if (typeof value === 'string' && STATUS_TEXT.test(value)) return Number(value);
  return null;
}

/** A counter (Guardian's): a whole number from 0 to 2^53 − 1, the integers a JavaScript number holds exactly. */
export function storableCounter(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * What a Guardian snapshot stores of the API's six counters: each in its column when storableCounter
 * takes it (NULL otherwise), and all six in `counters`, as JSON, as the API sent them (a number beyond
 * 2^53 as JSON parsing read it: the column is NULL precisely so that no such figure passes for exact).
 * `counters` is null when the answer held no data.
 */
export function guardianCounters(data: Readonly<Record<string, unknown>> | null | undefined): {
  columns: Record<GuardianCounterColumn, number | null>;
  counters: string | null;
} {
  const columns = {} as Record<GuardianCounterColumn, number | null>;
  const sent: Record<string, unknown> = {};
  for (const name of GUARDIAN_COUNTER_NAMES) {
    const value = data?.[name];
    columns[GUARDIAN_COUNTER_COLUMNS[name]] = storableCounter(value);
    sent[name] = value ?? null;
  }
  return { columns, counters: data ? JSON.stringify(sent) : null };
}

/** Why a text cannot be stored (`field` names it in the reason), or null when it can. */
export function textProblem(field: string, text: string): string | null {
  if (text.includes('\u0000')) return `${field}: holds U+0000, which PostgreSQL cannot store in text`;
  if (!isWellFormed(text)) {
    const code = loneSurrogate(text).toString(16).toUpperCase();
    return `${field}: holds a lone surrogate (U+${code}), which is not Unicode text`;
  }
  return null;
}

// String.prototype.isWellFormed is in Node 20 (V8 11.3), not yet in TypeScript's ES2023 lib.
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return c;
  }
  return 0xfffd; // not reached for a text that is not well formed
}

/**
 * A message of edgelog's own (a reason, a parse error, an error text) that may quote what the API sent,
 * made storable: U+0000 and lone surrogates written as their escapes (`\u0000`, `\ud800`), visibly.
 */
export function storableMessage(text: string): string {
  if (!text.includes('\u0000') && isWellFormed(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      out += text.slice(i, i + 2);
      i++;
    } else if (c === 0 || (c >= 0xd800 && c <= 0xdfff)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += text[i];
  }
  return out;
}

/** Why a logId cannot be an entry's key, or null when it can. */
export function keyProblem(logId: string): string | null {
  // Up to 3 bytes per UTF-16 unit: a short logId needs no count.
  if (logId.length * 3 <= MAX_KEY_BYTES) return null;
  const bytes = Buffer.byteLength(logId, 'utf8');
  if (bytes <= MAX_KEY_BYTES) return null;
  return `logId: ${bytes} bytes long, longer than the ${MAX_KEY_BYTES} bytes an entry key may hold`;
}

/**
 * Why a row cannot be stored, or null: its logId, then each text column in `fields` order (the first
 * problem found names its field). `columns` holds the batch's columns; `i` is the row.
 */
export function rowProblem(
  columns: Readonly<Record<string, ReadonlyArray<unknown>>>,
  fields: readonly string[],
  i: number,
): string | null {
  const logId = columns.logId![i];
  if (typeof logId === 'string') {
    const problem = keyProblem(logId);
    if (problem !== null) return problem;
  }
  for (const f of fields) {
    const v = columns[f]![i];
    if (typeof v !== 'string') continue;
    const problem = textProblem(f, v);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * The value a rollup keys by: the value itself, or for one longer than MAX_ROLLUP_KEY_BYTES its first
 * ROLLUP_PREFIX_BYTES (whole characters), `…` and 16 hex digits of its SHA-256, so that two long values
 * that differ stay apart and the key fits the rollup's index. The entry keeps the value whole.
 */
export function rollupKey(value: string): string {
  if (value.length * 3 <= MAX_ROLLUP_KEY_BYTES) return value;
  if (Buffer.byteLength(value, 'utf8') <= MAX_ROLLUP_KEY_BYTES) return value;
  let bytes = 0;
  let end = 0;
  for (const ch of value) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > ROLLUP_PREFIX_BYTES) break;
    bytes += n;
    end += ch.length;
  }
  const hash = createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16);
  return `${value.slice(0, end)}…${hash}`;
}

/**
 * A rollup key's part from an entry's value: NULL as `empty` ('' or 0, to fit the key), a text through
 * rollupKey. Every writer of a rollup (both stores, migrate-store) counts by this.
 */
export function rollupValue(
  value: string | number | null | undefined,
  empty: string | number,
): string | number {
  if (value === null || value === undefined) return empty;
  return typeof value === 'string' ? rollupKey(value) : value;
}

/** True when `value` holds arrays or objects more than `max` levels deep (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number = MAX_NESTING): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ v: object; depth: number }> = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    for (const c of children) {
      if (typeof c === 'object' && c !== null) stack.push({ v: c, depth: depth + 1 });
    }
  }
  return false;
}

/** Why `value` (a field of an entry named `field`) is too deep to keep, or null. */
export function nestingProblem(field: string, value: unknown): string | null {
  return nestedDeeperThan(value) ? `${field}: nested deeper than ${MAX_NESTING} levels` : null;
}
