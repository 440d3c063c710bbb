// Turns the user's SQL into a statement that is known to read and not write, before anything runs.
import type { Statement } from 'better-sqlite3';
import { coerceError } from '../errors/coerce-error.js';
import type { SqliteConnection as Db } from '../store/read-only-connection.js';
import { QueryError } from './query-error.js';
import type { SqlValue } from '../format/values.js';

/**
 * Prepares one statement and refuses it unless it only reads and returns rows. Preparing executes
 * nothing, so a refused statement leaves the archive untouched. Rows come back as arrays (duplicate column
 * names survive) with integers as bigint (no precision lost above 2^53).
 */
export function prepareQuery(db: Db, sql: string): Statement<unknown[], SqlValue[]> {
  let stmt: Statement<unknown[], SqlValue[]>;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    throw prepareFailure(err);
  } finally {
    // SQLite applies flag pragmas while compiling them: preparing `PRAGMA query_only = OFF` already
    // turns it off. Put it back whatever the statement was (the read-only open still holds either way).
    db.pragma('query_only = ON');
  }
  // sqlite3_stmt_readonly(): false for anything that would change the database file.
  if (!stmt.readonly) {
    throw new QueryError('query refused: it would modify the archive (edgelog query is read-only)');
  }
  // BEGIN, ATTACH, `PRAGMA x = y` and the like are "read-only" yet change the connection; none is useful here.
  if (!stmt.reader) {
    throw new QueryError(
      'query refused: the statement returns no rows (edgelog query runs SELECT, WITH, PRAGMA and EXPLAIN statements)',
    );
  }
  return stmt.raw(true).safeIntegers(true);
}

/** SQLite's message (syntax, unknown table…) becomes the cause: the CLI prints `query failed: <it>`. */
function prepareFailure(err: unknown): QueryError {
  const { message } = coerceError(err);
  // better-sqlite3 checks these itself, with RangeErrors, before SQLite sees the text.
  if (err instanceof RangeError && /more than one statement/.test(message))
    return new QueryError('query refused: the SQL holds more than one statement; run them one at a time');
  if (err instanceof RangeError && /no statements/.test(message))
    return new QueryError('query refused: the SQL holds no statement');
  return new QueryError('query failed', { cause: err });
}
