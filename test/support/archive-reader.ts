// Reads an archive back with plain SQL, whichever store holds it: the acceptance tests that run on both
// stores check the archive through this. `?` placeholders on both; integers come back as numbers
// (PostgreSQL's bigint and numeric too), so one assertion reads both archives alike.
import pg from 'pg';
import { openDatabase } from '../../src/store/sqlite/database.js';

export interface ArchiveReader {
  /** Which store holds the archive: the few checks that differ (integrity, catalogs) look here. */
  readonly store: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The first column of the first row (null when there is none). */
  value(sql: string, ...params: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** A read-only connection to a SQLite archive. */
export function sqliteReader(path: string): ArchiveReader {
  const db = openDatabase(path, { readonly: true });
  return {
    store: 'sqlite',
    all: <T>(sql: string, ...params: unknown[]) => Promise.resolve(db.prepare(sql).all(...params) as T[]),
    value: (sql, ...params) =>
      Promise.resolve(
        db
          .prepare(sql)
          .pluck()
          .get(...params) ?? null,
      ),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

const INT8 = 20;
const NUMERIC = 1700;

/** A connection to a PostgreSQL archive. */
export async function postgresReader(url: string): Promise<ArchiveReader> {
  const parse: (oid: number, format?: 'text' | 'binary') => (value: string) => unknown = (oid, format) =>
    oid === INT8 || oid === NUMERIC
      ? Number
      : (pg.types.getTypeParser(oid, format) as (v: string) => unknown);
  const client = new pg.Client({
    connectionString: url,
    types: { getTypeParser: parse as typeof pg.types.getTypeParser },
  });
  await client.connect();
  const dollars = (sql: string) => {
    let i = 0;
    return sql.replace(/\?/g, () => `$${++i}`);
  };
  const all = async <T>(sql: string, ...params: unknown[]): Promise<T[]> =>
    (await client.query(dollars(sql), params)).rows as T[];
  return {
    store: 'postgres',
    all,
    async value(sql, ...params) {
      const { rows, fields } = await client.query(dollars(sql), params);
      const first = rows[0] as Record<string, unknown> | undefined;
      return first && fields[0] ? (first[fields[0].name] ?? null) : null;
    },
    close: () => client.end(),
  };
}

/** Where an archive lives: a SQLite file, or a PostgreSQL database. */
export type ArchiveLocation = { store: 'sqlite'; path: string } | { store: 'postgres'; url: string };

/** A reader of the archive at `at`. */
export async function openReader(at: ArchiveLocation): Promise<ArchiveReader> {
  return at.store === 'sqlite' ? sqliteReader(at.path) : postgresReader(at.url);
}
