// The store's small tables (the ledger, rollups, alert and history tables: archive-tables.ts) copied into
// DuckDB for one statement, only those it reads: a few thousand rows each, however many entries they
// describe. DuckDB cannot attach the store here (its SQLite and PostgreSQL extensions download at run
// time: STACK-NOTES), so the rows come through the store's read-only query path.
import type { DuckDBConnection } from '@duckdb/node-api';
import { STORE_TABLES, type StoreTableName } from '../store/archive-tables.js';
import type { QueryStore } from '../store/store.js';
import { appendStoreRows } from './store-append.js';
import type { WorkBudget } from './work-budget.js';

/** Makes `main.<name>` for each of `tables`, holding the store's rows of it. */
export async function copyStoreTables(
  conn: DuckDBConnection,
  store: QueryStore,
  tables: readonly StoreTableName[],
  budget: WorkBudget,
): Promise<void> {
  for (const name of tables) {
    const { columns } = STORE_TABLES[name];
    await conn.run(`CREATE TABLE main.${name} (${columns.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
    const select = `SELECT ${columns.map(([n]) => n).join(', ')} FROM ${name}`;
    await appendStoreRows(conn, store, { schema: 'main', table: name, columns }, select, budget);
  }
}
