// The store's rows into a DuckDB table a chunk at a time, each value in the table's type: what the
// archive's dialect reads of the store (the rows not in the history's parts, the small tables).
import { DuckDBDataChunk, type DuckDBConnection } from '@duckdb/node-api';
import type { ArchiveColumnType } from '../store/archive-tables.js';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryStore, QueryValue } from '../store/store.js';
import type { WorkBudget } from './work-budget.js';

/** Rows read from the store and appended to DuckDB at a time. */
const APPEND_ROWS = 2048;

export interface AppendTarget {
  schema: string;
  table: string;
  /** The table's columns in the order `sql` selects them, with their types. */
  columns: ReadonlyArray<readonly [string, ArchiveColumnType]>;
}

/** Appends the rows `sql` reads from the store to `target` (which exists); returns how many. */
export async function appendStoreRows(
  conn: DuckDBConnection,
  store: QueryStore,
  target: AppendTarget,
  sql: string,
  budget: WorkBudget,
): Promise<number> {
  const appender = await conn.createAppender(target.table, target.schema);
  const types = Array.from({ length: target.columns.length }, (_, i) => appender.columnType(i));
  const kinds = target.columns.map(([, t]) => t);
  let count = 0;
  try {
    await store.readOnly(sql, { timeoutMs: budget.remaining() }, async (cursor) => {
      for (
        let rows = await cursor.next(APPEND_ROWS);
        rows.length > 0;
        rows = await cursor.next(APPEND_ROWS)
      ) {
        budget.check();
        const chunk = DuckDBDataChunk.create(types, rows.length);
        chunk.setRows(rows.map((row) => row.map((v, i) => storeValue(v, kinds[i]!))));
        appender.appendDataChunk(chunk);
        count += rows.length;
      }
    });
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return count;
}

/** A store value in its column's type: integers as bigint, text as text (SQLite may hand either). */
function storeValue(value: QueryValue, type: ArchiveColumnType): bigint | number | string | null {
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
