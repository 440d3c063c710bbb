// The SQLite archive's rows for the history query: one read-only statement on a read-only connection
// (the one `edgelog query` opens: WAL reads, or an immutable snapshot verified afterwards), its rows
// pulled a batch at a time with integers as bigint.
import { openReadOnlyConnection } from '../query/read-only.js';
import { StoreQueryError } from '../store/store-query-error.js';
import type { QueryStore, QueryValue } from '../store/store.js';

export function sqliteRowReader(path: string): QueryStore {
  return {
    async readOnly(sql, _opts, consume) {
      const conn = openReadOnlyConnection(path);
      try {
        let rows: IterableIterator<QueryValue[]>;
        let columns: string[];
        try {
          const stmt = conn.db.prepare(sql);
          columns = stmt.columns().map((c) => c.name);
          rows = stmt.raw(true).safeIntegers(true).iterate() as IterableIterator<QueryValue[]>;
        } catch (err) {
          throw new StoreQueryError('failed', `query failed: ${(err as Error).message}`, { cause: err });
        }
        const result = await consume({
          columns,
          next(max) {
            const out: QueryValue[][] = [];
            for (let r = rows.next(); !r.done; r = rows.next()) {
              out.push(r.value);
              if (out.length >= max) break;
            }
            return Promise.resolve(out);
          },
        });
        conn.verify();
        return result;
      } catch (err) {
        conn.verify(err);
        throw err;
      } finally {
        conn.db.close();
      }
    },
  };
}
