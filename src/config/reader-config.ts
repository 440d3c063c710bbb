// The configuration of a command that only reads the archive (query, report, backup): the file and
// environment as every command reads them (file.ts), then a hand check of the one key it uses. The full
// schema (zod, and every other key) would take longer to load than such a command takes to run; the
// other keys are checked by the commands that use them.
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, readConfigInput, type LoadConfigOptions } from './file.js';

/** Default of `database.path` (schema.ts has the same). */
export const DEFAULT_DATABASE_PATH = 'data/edgelog.db';

export interface ReaderConfig {
  /** `url` (postgres:// or postgresql://) names a PostgreSQL archive, used instead of the file at `path`. */
  database: {
    path: string;
    url: string | null;
    ssl?: { rejectUnauthorized?: boolean; ca?: string };
  };
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
  const url = database?.url ?? null;
  if (url !== null && (typeof url !== 'string' || !/^postgres(ql)?:\/\/./i.test(url))) {
    throw new ConfigError(
      `Invalid configuration (${origin}):\n  - database.url: expected a postgres:// or postgresql:// URL`,
    );
  }
  const ssl = readerSsl(database?.ssl, origin);
  return Object.freeze({
    database: Object.freeze({ path, url, ...(ssl ? { ssl } : {}) }),
    origin,
  });
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
