// How a sql alert rule reads the archive: checked once at start (parses, and only reads), then run at
// each evaluation within its time bound. PostgreSQL: the store's read-only query path (a READ ONLY
// transaction, statement_timeout). SQLite: the check on the store's read-only path (preparing runs
// nothing), the run in a child process (child-query.ts).
import type { QueryStore } from '../store/store.js';
import { childQuery, type RowsResult } from './child-query.js';

export type { RowsResult };

export interface RuleQueries {
  /** Throws StoreQueryError (`refused` or `failed`) unless `sql` parses and only reads. Runs nothing. */
  check(sql: string): Promise<void>;
  run(sql: string, opts: { timeoutMs: number; maxRows: number }): Promise<RowsResult>;
}

/** Up to `maxRows` rows (and whether there were more) through a store's read-only query path. */
async function storeRows(
  queries: QueryStore,
  sql: string,
  opts: { timeoutMs: number; maxRows: number },
): Promise<RowsResult> {
  return queries.readOnly(sql, { timeoutMs: opts.timeoutMs }, async (cursor) => {
    const rows: RowsResult['rows'] = [];
    for (;;) {
      const batch = await cursor.next(opts.maxRows + 1 - rows.length);
      if (batch.length === 0) break;
      rows.push(...batch);
      if (rows.length > opts.maxRows) break;
    }
    const more = rows.length > opts.maxRows;
    return { columns: cursor.columns, rows: rows.slice(0, opts.maxRows), more };
  });
}

/** The store's read-only path for both (PostgreSQL: the server bounds each read). */
export function storeRuleQueries(queries: QueryStore): RuleQueries {
  return {
    check: (sql) => queries.readOnly(sql, { timeoutMs: 10_000 }, () => Promise.resolve()),
    run: (sql, opts) => storeRows(queries, sql, opts),
  };
}

/** SQLite: checked on the store's path, run in a child process that is killed at the bound. */
export function sqliteRuleQueries(queries: QueryStore, path: string): RuleQueries {
  return {
    check: (sql) => queries.readOnly(sql, { timeoutMs: 10_000 }, () => Promise.resolve()),
    run: (sql, opts) => childQuery(path, sql, opts),
  };
}
