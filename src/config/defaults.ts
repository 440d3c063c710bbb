// Defaults that both the full schema (schema.ts) and the readers' light config (reader-config.ts) use.

/** Default of `database.path`. */
export const DEFAULT_DATABASE_PATH = 'data/edgelog.db';
