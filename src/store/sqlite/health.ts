// HealthStore and the status reads on the SQLite archive (the statements: ../archive-reads.ts).
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { newestByZone, newestEntriesSql, statusReads } from '../archive-reads.js';
import { readMigrations } from '../migration-files.js';
import type { AppliedMigration, HealthStore, StatusReads } from '../store.js';
import type { Db } from './database.js';
import { MIGRATIONS_DIR } from './migrate.js';

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** The health of the archive `db` (the writer's connection). */
export function sqliteHealth(db: Db): HealthStore {
  const location = db.name;
  return {
    async writable() {
      if (!db.open) throw new Error('the database connection is closed');
      if (db.readonly) throw new Error('the database connection is read-only');
      // SQLite writes the -wal and -shm files beside the database: the directory must be writable too.
      const file = resolve(location);
      await access(file, constants.W_OK);
      await access(dirname(file), constants.W_OK);
    },
    migrations: () =>
      Promise.resolve({
        files: readMigrations(MIGRATIONS_DIR),
        applied: db.prepare('SELECT id, checksum FROM schema_migrations').all() as AppliedMigration[],
      }),
    async size() {
      // The write-ahead log is absent between checkpoints that truncate it: 0.
      const [database, wal] = await Promise.all([sizeOf(location), sizeOf(`${location}-wal`)]);
      return { database, wal };
    },
    newestEntries(zones) {
      const sql = newestEntriesSql(zones);
      if (sql === null) return () => Promise.resolve(new Map());
      const stmt = db.prepare(sql).raw(true);
      return () => Promise.resolve(newestByZone(stmt.all() as unknown[][]));
    },
  };
}

/** What `edgelog status` reads, on a (read-only) connection. */
export function sqliteStatusReads(db: Db): StatusReads {
  return statusReads({
    objects: (sql) => Promise.resolve(db.prepare(sql).all() as Array<Record<string, unknown>>),
    arrays: (sql) => Promise.resolve(db.prepare(sql).raw(true).all() as unknown[][]),
  });
}
