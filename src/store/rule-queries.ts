// The sql alert rules' reads (store.ts RuleQueries) through a store's read-only query path: both checks,
// and PostgreSQL's runs (the server bounds each read). SQLite runs them in a child process instead
// (sqlite-store.ts, sqlite/child-query.ts).
import { detachedSlice } from '../values/detached-text.js';
import type { QueryStore, QueryValue, RowsResult, RuleQueries, RuleRunOptions } from './store.js';

/** Rows fetched at a time: with values of megabytes, a batch is what the process holds uncut. */
const BATCH = 16;

/**
 * A value cut to `maxChars` characters and one more (bytes: half as many), and the characters it counts
 * for. Pure; sqlite/child-query.ts does the same in its child process.
 */
export function boundedValue(v: QueryValue, maxChars: number): [QueryValue, number] {
  if (typeof v === 'string') {
    const kept = v.length > maxChars + 1 ? detachedSlice(v, 0, maxChars + 1) : v;
    return [kept, kept.length];
  }
  if (v instanceof Uint8Array) {
    const bytes = Math.floor(maxChars / 2) + 1;
    const kept = v.length > bytes ? v.slice(0, bytes) : v;
    return [kept, kept.length * 2];
  }
  return [v, 8];
}

/** Up to `maxRows` rows (and whether there were more) through a store's read-only query path. */
async function storeRows(queries: QueryStore, sql: string, opts: RuleRunOptions): Promise<RowsResult> {
  const maxValue = opts.maxValueChars ?? Infinity;
  const maxResult = opts.maxResultChars ?? Infinity;
  return queries.readOnly(sql, { timeoutMs: opts.timeoutMs }, async (cursor) => {
    const rows: RowsResult['rows'] = [];
    let chars = 0;
    let sizeBound = false;
    read: for (;;) {
      const batch = await cursor.next(Math.min(BATCH, opts.maxRows + 1 - rows.length));
      if (batch.length === 0) break;
      for (const raw of batch) {
        const row = raw.map((v) => {
          const [kept, n] = boundedValue(v, maxValue);
          chars += n;
          return kept;
        });
        if (chars > maxResult) {
          sizeBound = true;
          break read;
        }
        rows.push(row);
        if (rows.length > opts.maxRows) break read;
      }
    }
    const more = sizeBound || rows.length > opts.maxRows;
    return {
      columns: cursor.columns,
      rows: rows.slice(0, opts.maxRows),
      more,
      ...(sizeBound ? { sizeBound } : {}),
    };
  });
}

/** Checks a rule's statement on the read-only path: it parses and only reads (preparing runs nothing). */
export const checkRuleQuery = (queries: QueryStore) => (sql: string) =>
  queries.readOnly(sql, { timeoutMs: 10_000 }, () => Promise.resolve());

/** The store's read-only path for both. */
export function storeRuleQueries(queries: QueryStore): RuleQueries {
  return { check: checkRuleQuery(queries), run: (sql, opts) => storeRows(queries, sql, opts) };
}
