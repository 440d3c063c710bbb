// The connection pool to the PostgreSQL archive: its size, TLS, the types it reads, and the URL shown
// in messages (never with its password).
//
// Driver: node-postgres (`pg`) with pg-copy-streams, chosen by bench/postgres-drivers.ts: COPY through
// pg-copy-streams ran several times faster than postgres.js's COPY writable on the same rows, and the
// two drivers were even on parameterised inserts and on a simple round trip (figures in docs/POSTGRES.md).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { displayUrl, registerUrlCredentials } from '../../redact.js';

export interface PostgresTlsOptions {
  /**
   * Verify the server's certificate against `ca` (or the system's roots). Turn off only for a server
   * whose certificate cannot be checked (a self-signed one without its CA at hand).
   * @defaultValue true
   */
  rejectUnauthorized?: boolean;
  /** The CA certificate(s), PEM text or a path to a PEM file (a managed database's CA bundle). */
  ca?: string;
}

/** The `database` section of a configuration, as far as reaching the server goes. */
export interface ServerTarget {
  url: string;
  ssl?: { rejectUnauthorized?: boolean | undefined; ca?: string | undefined } | undefined;
}

/** Pure: the connection options of `database` (its URL, and its TLS settings when given). */
export function serverOptions(database: ServerTarget): Pick<PostgresOptions, 'url' | 'ssl'> {
  const { url, ssl } = database;
  if (!ssl) return { url };
  return {
    url,
    ssl: {
      ...(ssl.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: ssl.rejectUnauthorized }),
      ...(ssl.ca === undefined ? {} : { ca: ssl.ca }),
    },
  };
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database?sslmode=…` (sslmode in the URL is honoured). */
  url: string;
  /** TLS to the server; false or absent leaves it to the URL's sslmode. @defaultValue undefined */
  ssl?: PostgresTlsOptions | false;
  /**
   * Connections in the pool. Each ingesting job holds one for a page's transaction; a few more serve
   * lease renewals, alerts and maintenance meanwhile.
   * @defaultValue poolSize(4)
   */
  max?: number;
  /** Shown in pg_stat_activity. @defaultValue 'edgelog' */
  applicationName?: string;
  /** How long to wait for a connection. @defaultValue 10 s */
  connectionTimeoutMs?: number;
  /**
   * Wait for each commit to reach the server's disk. Off, a commit returns before its WAL is flushed
   * (within a fraction of a second after): a crash of the server may lose the last commits, whole (rows
   * and checkpoint together, so a lost page is fetched again), as SQLite's synchronous=NORMAL may on
   * power loss. @defaultValue true
   */
  synchronousCommit?: boolean;
}

/** Connections for `concurrency` jobs: one each, and three for renewals, alerts and maintenance. */
export function poolSize(concurrency: number): number {
  return concurrency + 3;
}

// bigint (int8) columns hold milliseconds, ids and counts: numbers, all far below 2^53. A value beyond
// would lose digits, so it fails instead (the query path reads exact values with its own types).
const INT8 = 20;
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer ${text} is beyond 2^53 (read it as text)`);
  return n;
}

/** The type parsers of the store's own connections. */
export const storeTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8 && format !== 'binary'
      ? parseInt8
      : (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(
          oid,
          format,
        )) as pg.CustomTypesConfig['getTypeParser'],
};

/** TLS settings for pg: `ca` read from a file when it is a path. */
export function tlsConfig(ssl: PostgresTlsOptions | false | undefined): pg.ClientConfig['ssl'] {
  if (!ssl) return undefined;
  const ca =
    ssl.ca === undefined ? undefined : ssl.ca.includes('-----BEGIN') ? ssl.ca : readFileSync(ssl.ca, 'utf8');
  return { rejectUnauthorized: ssl.rejectUnauthorized ?? true, ...(ca === undefined ? {} : { ca }) };
}

/** The pool's configuration (exported for tests). */
export function poolConfig(opts: PostgresOptions): pg.PoolConfig {
  const ssl = tlsConfig(opts.ssl);
  return {
    connectionString: opts.url,
    ...(ssl === undefined ? {} : { ssl }),
    max: opts.max ?? poolSize(4),
    application_name: opts.applicationName ?? 'edgelog',
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 10_000,
    ...(opts.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
    types: storeTypes,
  };
}

/**
 * Opens the pool (connections are made on first use). The URL's password is registered as a secret.
 * `onIdleError` hears of idle connections the server closed (without a listener they would crash the
 * process; the pool replaces them).
 */
export function openPool(opts: PostgresOptions, onIdleError: (err: Error) => void): pg.Pool {
  registerUrlCredentials(opts.url);
  const pool = new pg.Pool(poolConfig(opts));
  pool.on('error', onIdleError);
  return pool;
}

/** The URL without its password, for messages. */
export function displayDatabaseUrl(url: string): string {
  return displayUrl(url);
}
