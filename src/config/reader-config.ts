// The configuration of a command that only reads the archive (query, report, backup): the file and
// environment as every command reads them (file.ts), then a hand check of the one key it uses. The full
// schema (zod, and every other key) would take longer to load than such a command takes to run; the
// other keys are checked by the commands that use them.
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, readConfigInput, type LoadConfigOptions } from './file.js';

/** Default of `database.path` (schema.ts has the same). */
export const DEFAULT_DATABASE_PATH = 'data/edgelog.db';

export interface ReaderConfig {
  database: { path: string };
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
  return Object.freeze({ database: Object.freeze({ path }), origin });
}
