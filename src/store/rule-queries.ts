// The sql alert rules' reads (store.ts RuleQueries) through a store's read-only query path: both checks,
// and PostgreSQL's runs (the server bounds each read). SQLite runs them in a child process instead
// (sqlite-store.ts, sqlite/child-query.ts).
import type { QueryStore, RowsResult, RuleQueries } from './store.js';

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

/** Checks a rule's statement on the read-only path: it parses and only reads (preparing runs nothing). */
export const checkRuleQuery = (queries: QueryStore) => (sql: string) =>
  queries.readOnly(sql, { timeoutMs: 10_000 }, () => Promise.resolve());

/** The store's read-only path for both. */
export function storeRuleQueries(queries: QueryStore): RuleQueries {
  return { check: checkRuleQuery(queries), run: (sql, opts) => storeRows(queries, sql, opts) };
}
