// Ad-hoc read-only statements on the SQLite archive (QueryStore): each on a read-only connection of its
// own (read-only.ts: also in a directory the reader may not write, with what it cannot open said plainly),
// with `query_only` on, refused unless the statement reads and returns rows.
import { StoreQueryError } from '../store-query-error.js';
import type { QueryCursor, QueryValue } from '../store.js';
import { openReadOnlyConnection } from './read-only.js';

// An async function turns a synchronous throw into a rejected promise.
// eslint-disable-next-line @typescript-eslint/require-await
const settle = async <T>(work: () => T): Promise<T> => work();

/** A read-only statement on its own connection to the file at `path` (ArchiveStore.queries, the readers'). */
export async function readOnlyQuery<T>(
  path: string,
  sql: string,
  consume: (cursor: QueryCursor) => Promise<T>,
): Promise<T> {
  const { db } = openReadOnlyConnection(path);
  let iterator: IterableIterator<QueryValue[]> | undefined;
  try {
    let stmt;
    try {
      stmt = db.prepare(sql);
    } catch (err) {
      throw new StoreQueryError('failed', `query failed: ${(err as Error).message}`, { cause: err });
    }
    if (!stmt.readonly) {
      throw new StoreQueryError(
        'refused',
        'query refused: it would modify the archive (edgelog query is read-only)',
      );
    }
    if (!stmt.reader) throw new StoreQueryError('refused', 'query refused: the statement returns no rows');
    const columns = stmt.columns().map((c) => c.name);
    const rows = stmt.raw(true).safeIntegers(true).iterate() as IterableIterator<QueryValue[]>;
    iterator = rows;
    return await consume({
      columns,
      next: (max) =>
        settle(() => {
          const out: QueryValue[][] = [];
          for (let r = rows.next(); !r.done; r = rows.next()) {
            out.push(r.value);
            if (out.length >= max) break;
          }
          return out;
        }),
    });
  } finally {
    // A consumer that stopped before the last row leaves the statement running: end it, or the
    // connection cannot close ("busy executing a query").
    iterator?.return?.();
    db.close();
  }
}
