// The connection every query and report uses: read-only at open and again per statement.
import { openDatabase, type Db } from '../store/database.js';

/**
 * Opens an existing archive read-only. `query_only` is a second lock on top of the read-only open: even
 * a statement that slipped past the checks in prepare-query.ts cannot write. In WAL mode the reader
 * sees the last committed state while the worker keeps writing.
 */
export function openReadOnly(path: string): Db {
  const db = openDatabase(path, { readonly: true });
  db.pragma('query_only = ON');
  return db;
}
