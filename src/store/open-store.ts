// Opens the archive the configuration names: the SQLite file at `database.path`, or the PostgreSQL
// server at `database.url`. The PostgreSQL store (and `pg` with it) is imported only when one is named,
// so that commands on a SQLite archive do not pay its load time.
import type { Logger } from '../logger.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { ArchiveStore, MigrationResult, StoreDialect } from './store.js';

/** The `database` section of the configuration, as far as opening the archive goes. */
export interface StoreTarget {
  /** The SQLite file, used when `url` is absent. */
  path: string;
  /** postgres:// or postgresql://: a PostgreSQL archive. @defaultValue null */
  url?: string | null | undefined;
  ssl?: { rejectUnauthorized?: boolean | undefined; ca?: string | undefined } | undefined;
  /** SQLite: checkpoint the WAL from a background thread. @defaultValue false */
  backgroundCheckpoints?: boolean | undefined;
}

export interface OpenStoreOptions {
  logger?: Logger;
  /** PostgreSQL: jobs run at once (the pool holds one connection each, and a few more). @defaultValue 4 */
  concurrency?: number;
  /** SQLite: page cache of the connection, in MiB. @defaultValue 64 */
  cacheMiB?: number;
  /** @defaultValue Date.now */
  now?: () => number;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** Pure: which store a target names. */
export function dialectOf(target: Pick<StoreTarget, 'url'>): StoreDialect {
  return target.url && POSTGRES_URL.test(target.url) ? 'postgres' : 'sqlite';
}

/** Opens (and migrates) the archive `target` names. */
export async function openStore(target: StoreTarget, opts: OpenStoreOptions = {}): Promise<ArchiveStore> {
  if (dialectOf(target) === 'postgres') {
    const [{ openPostgresStore }, { poolSize, serverOptions }] = await Promise.all([
      import('./postgres/postgres-store.js'),
      import('./postgres/connection.js'),
    ]);
    return openPostgresStore({
      ...serverOptions({ url: target.url!, ssl: target.ssl }),
      max: poolSize(opts.concurrency ?? 4),
      ...(opts.logger ? { logger: opts.logger } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    });
  }
  if (target.url) {
    throw new TypeError(`database.url must be a postgres:// or postgresql:// URL`);
  }
  return openSqliteStore(target.path, {
    ...(opts.logger ? { logger: opts.logger } : {}),
    backgroundCheckpoints: target.backgroundCheckpoints ?? false,
    ...(opts.cacheMiB === undefined ? {} : { cacheMiB: opts.cacheMiB }),
  });
}

/**
 * `edgelog migrate`: applies the pending migrations of the archive `target` names and reports each file
 * (never throws for one), without opening the store (PostgreSQL: one connection; no partition made).
 */
export async function migrateArchive(target: StoreTarget): Promise<MigrationResult[]> {
  if (dialectOf(target) === 'postgres') {
    const { migratePostgresArchive, serverOptions } = await import('./postgres/postgres-store.js');
    return migratePostgresArchive(serverOptions({ url: target.url!, ssl: target.ssl }));
  }
  const [{ openDatabase }, { migrate }] = await Promise.all([
    import('./sqlite/database.js'),
    import('./sqlite/migrate.js'),
  ]);
  const db = openDatabase(target.path);
  try {
    return migrate(db);
  } finally {
    db.close();
  }
}
