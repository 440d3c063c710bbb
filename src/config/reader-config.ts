// The configuration of a command that only reads the archive (query, report, backup): the file and
// environment as every command reads them (file.ts), then a hand check of the one key it uses. The full
// schema (zod, and every other key) would take longer to load than such a command takes to run; the
// other keys are checked by the commands that use them.
import { ConfigError } from '../errors/config-error.js';
import { DEFAULT_DATABASE_PATH } from './defaults.js';
import { isPlainObject, readConfigInput, type LoadConfigOptions } from './file.js';

export interface ReaderConfig {
  /**
   * `url` (postgres:// or postgresql://) names a PostgreSQL archive, used instead of the file at `path`;
   * `readerUrl` the same archive as readers reach it (see readerServer).
   */
  database: {
    path: string;
    url: string | null;
    readerUrl: string | null;
    ssl?: { rejectUnauthorized?: boolean; ca?: string };
  };
  /** `history.path` as configured (undefined: the default beside the archive; null: no history). */
  history: { path?: string | null };
  /** Where the configuration came from: a file path, or "defaults". */
  origin: string;
}

export function loadReaderConfig(opts: LoadConfigOptions = {}): ReaderConfig {
  const { input, origin } = readConfigInput(opts);
  const database: unknown = input.database;
  if (database !== undefined && !isPlainObject(database)) {
    throw new ConfigError(`Invalid configuration (${origin}):\n  - database: expected an object`);
  }
  const path = database?.path ?? DEFAULT_DATABASE_PATH;
  if (typeof path !== 'string' || path.length === 0) {
    throw new ConfigError(
      `Invalid configuration (${origin}):\n  - database.path: expected a path, e.g. "data/edgelog.db"`,
    );
  }
  const url = postgresUrlAt('url', database?.url, origin);
  const readerUrl = postgresUrlAt('readerUrl', database?.readerUrl, origin);
  const ssl = readerSsl(database?.ssl, origin);
  const history = readerHistory(input.history, origin);
  return Object.freeze({
    database: Object.freeze({ path, url, readerUrl, ...(ssl ? { ssl } : {}) }),
    history,
    origin,
  });
}

/** Pure: a reader's configuration from the whole one (`edgelog run` serving the console). */
export function readerConfigOf(config: {
  database: ReaderConfig['database'];
  history: { path?: string | null };
  origin: string;
}): ReaderConfig {
  const { path, url, readerUrl, ssl } = config.database;
  return Object.freeze({
    database: Object.freeze({ path, url, readerUrl, ...(ssl ? { ssl } : {}) }),
    history: Object.freeze(config.history.path === undefined ? {} : { path: config.history.path }),
    origin: config.origin,
  });
}

/**
 * Pure: the PostgreSQL URL the commands that only read connect with: `readerUrl` (a role that may only
 * read) when set, else the worker's `url`; null for a SQLite archive.
 */
export function readerServer(database: { url: string | null; readerUrl: string | null }): string | null {
  return database.readerUrl ?? database.url;
}

function postgresUrlAt(key: 'url' | 'readerUrl', value: unknown, origin: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^postgres(ql)?:\/\/./i.test(value)) {
    throw new ConfigError(
      `Invalid configuration (${origin}):\n  - database.${key}: expected a postgres:// or postgresql:// URL`,
    );
  }
  return value;
}

function readerHistory(history: unknown, origin: string): { path?: string | null } {
  if (history === undefined) return Object.freeze({});
  const bad = (what: string) => new ConfigError(`Invalid configuration (${origin}):\n  - history${what}`);
  if (!isPlainObject(history)) throw bad(': expected an object');
  const { path } = history;
  if (path === undefined) return Object.freeze({});
  if (path !== null && (typeof path !== 'string' || path === ''))
    throw bad('.path: expected a directory, e.g. "data/history", or null for no history');
  return Object.freeze({ path });
}

function readerSsl(ssl: unknown, origin: string): { rejectUnauthorized?: boolean; ca?: string } | undefined {
  if (ssl === undefined) return undefined;
  const bad = (what: string) =>
    new ConfigError(`Invalid configuration (${origin}):\n  - database.ssl${what}`);
  if (!isPlainObject(ssl)) throw bad(': expected an object');
  const { rejectUnauthorized, ca } = ssl;
  if (rejectUnauthorized !== undefined && typeof rejectUnauthorized !== 'boolean')
    throw bad('.rejectUnauthorized: expected true or false');
  if (ca !== undefined && (typeof ca !== 'string' || ca === ''))
    throw bad('.ca: expected PEM text or a path to a PEM file');
  return Object.freeze({
    ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }),
    ...(ca === undefined ? {} : { ca }),
  });
}
