// Pure: one SQLite value as text for each output format.

/** What a result cell holds: NULL, REAL, INTEGER (read with safeIntegers), TEXT or BLOB. */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** BLOBs are written as upper-case hexadecimal, the text SQLite's own hex() gives. */
export function blobHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

/** A value as a JSON literal. Integers keep every digit; JSON has no Infinity, so it becomes null. */
export function jsonValue(value: SqlValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(blobHex(value));
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A CSV field (RFC 4180): quoted when it holds a quote, comma, CR or LF, quotes doubled. NULL is an
 * empty field and the empty string is `""`, so the two stay apart (as PostgreSQL's CSV does).
 */
export function csvField(value: SqlValue): string {
  if (value === null) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value instanceof Uint8Array) text = blobHex(value);
  else text = String(value);
  if (text === '') return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * JSON object keys for the result's columns: a name seen before gets `_2`, `_3`… (`SELECT * FROM a JOIN b`
 * often repeats `id`), so no column is silently dropped.
 */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name}_${n}`;
    taken.add(unique);
    return unique;
  });
}
