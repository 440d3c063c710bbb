// Pure: a value the store's read-only query path handed over, in the archive column's type. SQLite may
// hand an integer as a number or text, PostgreSQL a bigint as text; both hand text as text or bytes.
import type { ArchiveColumnType } from '../store/archive-tables.js';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryValue } from '../store/store.js';

/** A store value in its column's type: integers as bigint, numbers as number, anything else as text. */
export function storeValue(value: QueryValue, type: ArchiveColumnType): bigint | number | string | null {
  if (value === null) return null;
  if (type === 'BIGINT') {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) return BigInt(value);
    throw new StoreQueryError('failed', 'query failed: the store holds a non-integer where one is expected');
  }
  if (type === 'DOUBLE') {
    if (typeof value === 'number') return value;
    if (typeof value === 'bigint') return Number(value);
    const n = Number(value);
    if (typeof value === 'string' && Number.isFinite(n)) return n;
    throw new StoreQueryError('failed', 'query failed: the store holds a non-number where one is expected');
  }
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString();
  return String(value);
}
