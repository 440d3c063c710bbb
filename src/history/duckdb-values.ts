// DuckDB's values as the store's query path gives them (values.ts): integers as bigint (every digit),
// floats as numbers, booleans as 1/0, bytes as bytes, a decimal as a number when a double holds it
// exactly (15 significant digits at most, as on PostgreSQL) else as its text, a timestamp (`time`) as
// ISO-8601 UTC text with milliseconds and a Z (what SQLite shows for `time`), a date as YYYY-MM-DD, and
// anything else (lists, structs, intervals…) as DuckDB's own text.
import {
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { SqlValue } from '../format/values.js';

/** Dates a JavaScript Date holds (±8.64e15 ms); outside them DuckDB's own text is shown. */
const MAX_MS = 8_640_000_000_000_000n;

/** Microseconds since the epoch as `2026-11-24T13:05:00.123Z`. */
export function isoFromMicros(micros: bigint, text: () => string): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  if (ms > MAX_MS || ms < -MAX_MS) return text();
  const iso = new Date(Number(ms)).toISOString();
  // Years beyond 9999 come out as +010000-…; DuckDB's text reads better there.
  return iso.length === 24 ? iso : text();
}

/** A decimal's text as a number when a double holds it exactly, else the text (as PostgreSQL's path). */
export function decimalValue(text: string): number | string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15 ? Number(text) : text;
}

export function sqlValue(value: DuckDBValue): SqlValue {
  if (value === null) return null;
  switch (typeof value) {
    case 'number':
    case 'bigint':
    case 'string':
      return value;
    case 'boolean':
      return value ? 1n : 0n;
  }
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue)
    return isoFromMicros(value.micros, () => value.toString());
  if (value instanceof DuckDBTimestampMillisecondsValue)
    return isoFromMicros(value.millis * 1000n, () => value.toString());
  if (value instanceof DuckDBTimestampSecondsValue)
    return isoFromMicros(value.seconds * 1_000_000n, () => value.toString());
  if (value instanceof DuckDBTimestampNanosecondsValue)
    return isoFromMicros(value.nanos / 1000n, () => value.toString());
  if (value instanceof DuckDBDecimalValue) return decimalValue(value.toString());
  if (value instanceof DuckDBBlobValue) return value.bytes;
  return String(value);
}
