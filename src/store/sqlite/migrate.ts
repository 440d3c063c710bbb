// Numbered plain-SQL migrations: each file applied once, in order, in its own transaction, and recorded.
import { coerceError } from '../../errors/index.js';
import { MIGRATIONS_DIRS, readMigrations } from '../migration-files.js';
import type { MigrationResult } from '../store.js';
import type { Db } from './database.js';
import { registerTermFunctions } from './term-functions.js';

/** The SQLite migrations shipped with edgelog (`migrations/sqlite/`). */
export const MIGRATIONS_DIR = MIGRATIONS_DIRS.sqlite;

/**
 * Applies every migration not yet recorded. Never throws for a failing migration: the result says which
 * file failed and why, and later files are reported `not-run`. Callers decide whether that is fatal.
 */
export function migrate(db: Db, dir = MIGRATIONS_DIR): MigrationResult[] {
  // Functions a backfill calls, so that it keys values exactly as the writers do.
  registerTermFunctions(db);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    (
      db.prepare('SELECT id, checksum FROM schema_migrations').all() as Array<{
        id: number;
        checksum: string;
      }>
    ).map((r) => [r.id, r.checksum]),
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
  );
  const recorded = db.prepare('SELECT checksum FROM schema_migrations WHERE id = ?').pluck();
  const results: MigrationResult[] = [];
  let failed = false;
  for (const m of readMigrations(dir)) {
    const base = { id: m.id, name: m.name };
    if (failed) {
      results.push({ ...base, status: 'not-run' });
      continue;
    }
    const known = applied.get(m.id);
    if (known !== undefined) {
      results.push({ ...base, status: known === m.checksum ? 'already-applied' : 'changed-after-apply' });
      continue;
    }
    try {
      const status = db
        .transaction((): MigrationResult['status'] => {
          // Another process starting on the same archive may have applied it since `applied` was read;
          // the write lock is this one's now, so what is recorded is settled.
          const now = recorded.get(m.id) as string | undefined;
          if (now !== undefined) return now === m.checksum ? 'already-applied' : 'changed-after-apply';
          db.exec(m.sql);
          record.run(m.id, m.name, m.checksum, new Date().toISOString());
          return 'applied';
        })
        .immediate();
      results.push({ ...base, status });
    } catch (err) {
      failed = true;
      results.push({ ...base, status: 'failed', error: coerceError(err).message });
    }
  }
  return results;
}

/** Throws when any migration failed; used at start-up, where a half-migrated archive must not be written. */
export function assertMigrated(results: MigrationResult[]): void {
  const bad = results.find((r) => r.status === 'failed');
  if (bad) throw new Error(`migration ${bad.name} failed: ${bad.error}`);
}
