// Numbered plain-SQL migrations for PostgreSQL (`migrations/postgres/`), each applied once, in order, in
// its own transaction, and recorded with its checksum, as src/store/sqlite/migrate.ts does for SQLite. Workers
// starting together take turns (a transaction-scoped advisory lock), and each re-reads what is recorded
// once it has the lock, so a migration is never applied twice.
import type pg from 'pg';
import { coerceError } from '../../errors/index.js';
import { MIGRATIONS_DIRS, readMigrations } from '../migration-files.js';
import type { MigrationResult } from '../store.js';
import { sqlState, transaction } from './transaction.js';

/** The PostgreSQL migrations shipped with edgelog (`migrations/postgres/`, from both src/ and dist/). */
export const POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIRS.postgres;

/** pg_advisory_xact_lock key of migrations ('edgelog migrate'). */
const MIGRATION_LOCK = 0x65_64_67_6d;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  id bigint PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at text NOT NULL)`;

/**
 * Applies every migration not yet recorded. Never throws for a failing migration: the result says which
 * file failed and why, and later files are reported `not-run`. Callers decide whether that is fatal.
 */
export async function migratePostgres(
  pool: pg.Pool,
  dir = POSTGRES_MIGRATIONS_DIR,
  now: () => Date = () => new Date(),
): Promise<MigrationResult[]> {
  const results: MigrationResult[] = [];
  let failed = false;
  for (const m of readMigrations(dir)) {
    const base = { id: m.id, name: m.name };
    if (failed) {
      results.push({ ...base, status: 'not-run' });
      continue;
    }
    try {
      const status = await transaction(pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await c.query(CREATE_TABLE);
        const { rows } = await c.query<{ checksum: string }>(
          'SELECT checksum FROM schema_migrations WHERE id = $1',
          [m.id],
        );
        const known = rows[0]?.checksum;
        if (known !== undefined) return known === m.checksum ? 'already-applied' : 'changed-after-apply';
        await c.query(m.sql);
        await c.query(
          'INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
          [m.id, m.name, m.checksum, now().toISOString()],
        );
        return 'applied';
      });
      results.push({ ...base, status });
    } catch (err) {
      failed = true;
      const code = sqlState(err);
      results.push({
        ...base,
        status: 'failed',
        error: coerceError(err).message,
        ...(code === undefined ? {} : { code }),
      });
    }
  }
  return results;
}
