// `edgelog query` on PostgreSQL: one statement, on a connection of its own, in a READ ONLY transaction
// (a write fails, and nothing is kept: the transaction is rolled back), each read bounded by
// statement_timeout, and its rows pulled through a cursor so a large result is never held whole.
//
// The statement is sent with the extended protocol (one statement only: `SELECT 1; COMMIT; DROP …` is
// refused by the server before anything runs) inside DECLARE … CURSOR, which takes SELECT, VALUES and
// WITH … SELECT (EXPLAIN runs as it is). For a second lock on top, point `edgelog query` at a role that may
// only read (database.readerUrl): a superuser's read-only transaction still reads server files.
//
// statement_timeout is the server's bound, but the statement may lift it: a second connection cancels a
// statement past its bound, or at once when the caller stops (server-cancel.ts); and the server checks
// every second that the client is still there (client_connection_check_interval, PostgreSQL 14+), so a
// killed client's statement ends too.
import pg from 'pg';
import { StoreQueryError } from '../store-query-error.js';
import type { QueryCursor, QueryStore, QueryValue, ReadOnlyQueryOptions } from '../store.js';
import { readerRole, type ReaderRole } from './reader-role.js';
import { ServerCancel } from './server-cancel.js';
import { sqlState } from './transaction.js';

// Values as SQLite's query path gives them: integers as bigint (every digit), floats as numbers, bytes
// as bytes, booleans as 1/0; a numeric as a number when a double holds it exactly (15 significant digits
// at most), else as its text; a timestamp (the entry tables' `time`, UTC) as ISO-8601 text with a Z, as
// SQLite shows `time`; everything else as PostgreSQL's text.
const OIDS = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  float4: 700,
  float8: 701,
  timestamp: 1114,
  numeric: 1700,
} as const;

export function numericValue(text: string): number | string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text; // NaN, Infinity
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15 ? Number(text) : text;
}

/** `2026-11-20 00:00:02.15` → `2026-11-20T00:00:02.150Z` (milliseconds, as SQLite's %f; finer digits kept). */
export function isoTimestamp(text: string): string {
  const m = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(text);
  if (!m) return text; // infinity, BC dates
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0')}Z`;
}

const queryTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number): unknown => {
    switch (oid) {
      case OIDS.int2:
      case OIDS.int4:
      case OIDS.int8:
        return (text: string) => BigInt(text);
      case OIDS.float4:
      case OIDS.float8:
        return (text: string) => Number(text);
      case OIDS.numeric:
        return numericValue;
      case OIDS.timestamp:
        return isoTimestamp;
      case OIDS.bool:
        return (text: string) => (text === 't' ? 1n : 0n);
      case OIDS.bytea:
        return (pg.types.getTypeParser as (oid: number, format: string) => unknown)(OIDS.bytea, 'text');
      default:
        return (text: string) => text;
    }
  }) as pg.CustomTypesConfig['getTypeParser'],
};

const CURSOR = 'edgelog_query';
/** What DECLARE … CURSOR FOR takes (anything else would be a syntax error there). */
const READS = /^\(*\s*(select|with|values|table)\b/i;
const EXPLAIN = /^explain\b/i;

/** The statement without the comments before it. */
export function withoutLeadingComments(sql: string): string {
  let s = sql.trimStart();
  for (;;) {
    if (s.startsWith('--')) s = s.slice(s.indexOf('\n') === -1 ? s.length : s.indexOf('\n') + 1).trimStart();
    else if (s.startsWith('/*') && s.includes('*/')) s = s.slice(s.indexOf('*/') + 2).trimStart();
    else return s;
  }
}
/**
 * The session's backend (for a cancel from outside), and the server told to look for a client gone
 * away every second while a statement runs (the setting is PostgreSQL 14's; older servers skip it).
 */
const SESSION_SQL = `SELECT pg_backend_pid() AS pid,
  CASE WHEN current_setting('server_version_num')::int >= 140000
    THEN set_config('client_connection_check_interval', '1000', true) END AS checks`;

/** What a statement runs with: the query's options and the session's outside cancel. */
type Bounded = ReadOnlyQueryOptions & { cancel: ServerCancel };

const READ_ONLY_SQL_TRANSACTION = '25006';
const QUERY_CANCELED = '57014';

export interface PostgresQueriesOptions {
  /** Told, before each statement, which role runs it and what else it may do (`edgelog query` warns). */
  onRole?: (role: ReaderRole) => void;
}

export class PostgresQueries implements QueryStore {
  constructor(
    private readonly config: pg.ClientConfig,
    private readonly opts: PostgresQueriesOptions = {},
  ) {}

  async readOnly<T>(
    sql: string,
    opts: ReadOnlyQueryOptions,
    consume: (cursor: QueryCursor) => Promise<T>,
  ): Promise<T> {
    const statement = sql.trim().replace(/;\s*$/, '');
    if (statement === '') throw new StoreQueryError('refused', 'query refused: the SQL holds no statement');
    const head = withoutLeadingComments(statement);
    const explain = EXPLAIN.test(head);
    if (!explain && !READS.test(head)) {
      throw new StoreQueryError(
        'refused',
        'query refused: edgelog query runs SELECT, WITH … SELECT, VALUES, TABLE and EXPLAIN statements (it is read-only)',
      );
    }
    const client = new pg.Client({ ...this.config, types: queryTypes });
    // A connection that dies emits 'error' (the query in flight fails as well); unheard, it would crash.
    client.on('error', () => {});
    await client.connect();
    let cancel: ServerCancel | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ pid: bigint }>(SESSION_SQL);
      cancel = new ServerCancel(this.config, Number(rows[0]!.pid), opts.signal);
      if (this.opts.onRole) this.opts.onRole(await readerRole(client));
      if (opts.timeoutMs !== null && opts.timeoutMs > 0) {
        await client.query(`SET LOCAL statement_timeout = ${Math.floor(opts.timeoutMs)}`);
      }
      const bounded = { ...opts, cancel };
      if (explain) return await consume(await explainCursor(client, statement, bounded));
      await run(client, `DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${statement}`, bounded);
      let columns: string[] | null = null;
      const cursor: QueryCursor = {
        get columns() {
          if (columns === null) throw new Error('read the first rows before the columns');
          return columns;
        },
        next: async (max) => {
          const r = await run(client, `FETCH ${Math.max(1, Math.floor(max))} FROM ${CURSOR}`, bounded);
          columns ??= r.fields.map((f) => f.name);
          return r.rows as QueryValue[][];
        },
      };
      return await consume(cursor);
    } finally {
      cancel?.dispose();
      // Nothing a query did is kept; the connection is closed, so no setting it changed outlives it.
      await client.query('ROLLBACK').catch(() => {});
      await client.end().catch(() => {});
    }
  }
}

/** EXPLAIN cannot be a cursor's query: its few rows are read at once (ANALYZE of a write still fails). */
async function explainCursor(client: pg.Client, statement: string, opts: Bounded): Promise<QueryCursor> {
  const r = await run(client, statement, opts);
  let rows = r.rows as QueryValue[][];
  return {
    columns: r.fields.map((f) => f.name),
    next: (max) => {
      const out = rows.slice(0, max);
      rows = rows.slice(max);
      return Promise.resolve(out);
    },
  };
}

/** One statement by the extended protocol, rows as arrays; the server's refusals as StoreQueryError. */
async function run(client: pg.Client, text: string, opts: Bounded): Promise<pg.QueryArrayResult> {
  const { cancel } = opts;
  const stopped = (cause?: unknown) =>
    new StoreQueryError('stopped', 'query stopped: its statement was cancelled on the server', { cause });
  // Stopped between reads (the rows in hand were being written out): no further statement is sent.
  if (cancel.cancelled() === 'stopped') throw stopped();
  try {
    return await cancel.bounded(opts.timeoutMs, () =>
      client.query({ text, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig),
    );
  } catch (err) {
    const state = sqlState(err);
    const message = (err as Error).message;
    if (cancel.cancelled() === 'stopped') throw stopped(err);
    if (state === QUERY_CANCELED || cancel.cancelled() === 'timeout') {
      throw new StoreQueryError('timeout', `query stopped after ${opts.timeoutMs} ms (statement timeout)`, {
        cause: err,
      });
    }
    if (state === READ_ONLY_SQL_TRANSACTION) {
      throw new StoreQueryError(
        'refused',
        'query refused: it would modify the archive (edgelog query is read-only)',
        {
          cause: err,
        },
      );
    }
    throw new StoreQueryError('failed', `query failed: ${message}`, { cause: err });
  }
}
