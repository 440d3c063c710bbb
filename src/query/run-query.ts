// Runs one read-only statement and writes its result in the chosen format.
import Database from 'better-sqlite3';
import type { SqliteConnection as Db } from '../store/read-only-connection.js';
import type { Output } from '../format/output.js';
import { prepareQuery } from './prepare-query.js';
import { QueryError } from './query-error.js';
import { ENCODERS, type EncoderOptions, type StreamFormat } from '../format/row-encoders.js';
import { queryTable, type QueryTableOptions } from './table-output.js';
import type { SqlValue } from '../format/values.js';

export type QueryFormat = 'table' | StreamFormat;
export const QUERY_FORMATS: readonly QueryFormat[] = ['table', 'json', 'ndjson', 'csv'];

/** Rows the table format shows unless told otherwise. */
export const DEFAULT_TABLE_LIMIT = 1000;

export interface QueryOptions {
  /** Called every few rows and before each write; throws to stop the query (its time bound). */
  check?: () => void;
  /** @defaultValue 'table' */
  format?: QueryFormat;
  /**
   * Rows written at most; 0 means all. Every format stops reading after `limit` rows and one more (to
   * tell whether there are more), so an endless result still ends.
   * @defaultValue DEFAULT_TABLE_LIMIT for `table`, 0 (all rows) for json, ndjson and csv
   */
  limit?: number;
  /** How the table fits the terminal. @defaultValue cells cut at MAX_CELL, no total bound */
  table?: QueryTableOptions;
  /** CSV formula neutralising and terminal escaping. @defaultValue formulas neutralised, not a terminal */
  encoding?: EncoderOptions;
}

export interface QueryResult {
  columns: string[];
  /** Rows written. */
  rows: number;
  /** The result had rows beyond `limit` (not counted: counting would mean stepping through them all). */
  more: boolean;
}

/** Text is handed to the output in chunks of about this many characters. */
const CHUNK = 64 * 1024;

/**
 * Runs `sql` on `db` (open it with openReadOnly) and writes the result to `out`. Throws QueryError when
 * the statement is refused or SQLite fails; output already written stays written.
 */
export async function runQuery(db: Db, sql: string, opts: QueryOptions, out: Output): Promise<QueryResult> {
  const format = opts.format ?? 'table';
  const limit = opts.limit ?? (format === 'table' ? DEFAULT_TABLE_LIMIT : 0);
  const check = opts.check ?? (() => {});
  const stmt = prepareQuery(db, sql);
  const columns = stmt.columns().map((c) => c.name);
  const rows = stmt.iterate();
  try {
    if (format === 'table') {
      const shown: SqlValue[][] = [];
      let more = false;
      // Breaking out of the loop resets the statement: the rest of the result is never computed.
      for (const row of rows) {
        if ((shown.length & 1023) === 0) check();
        if (limit !== 0 && shown.length === limit) {
          more = true;
          break;
        }
        shown.push(row);
      }
      await out.write(queryTable(columns, shown, more, opts.table));
      return { columns, rows: shown.length, more };
    }
    const encoder = ENCODERS[format](columns, opts.encoding);
    let text = encoder.start();
    let count = 0;
    let more = false;
    for (const row of rows) {
      if ((count & 1023) === 0) check();
      if (limit !== 0 && count === limit) {
        more = true;
        break;
      }
      text += encoder.row(row, count++);
      if (text.length >= CHUNK) {
        check();
        await out.write(text);
        text = '';
      }
    }
    await out.write(text + encoder.end(count));
    return { columns, rows: count, more };
  } catch (err) {
    // SQLite can also fail while stepping (integer overflow, a malformed JSON argument…).
    if (err instanceof Database.SqliteError) throw new QueryError('query failed', { cause: err });
    throw err;
  }
}
