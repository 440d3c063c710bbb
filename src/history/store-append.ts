// The store's rows into a DuckDB table a chunk at a time, each value in the table's type: what the
// archive's dialect reads of the store (the rows not in the history's parts, the small tables).
import { DuckDBDataChunk, type DuckDBConnection } from '@duckdb/node-api';
import type { ArchiveColumnType } from '../store/archive-tables.js';
import type { QueryStore } from '../store/store.js';
import { storeValue } from './store-value.js';
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
