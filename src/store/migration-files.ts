// The numbered plain-SQL migration files of both dialects (`migrations/sqlite/`, `migrations/postgres/`):
// read, numbered and checksummed the same way, so an archive of either records the same ids.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The migrations shipped with edgelog, per dialect (from both src/ and dist/). */
export const MIGRATIONS_DIRS: Readonly<Record<'sqlite' | 'postgres', string>> = {
  sqlite: fileURLToPath(new URL('../../migrations/sqlite/', import.meta.url)),
  postgres: fileURLToPath(new URL('../../migrations/postgres/', import.meta.url)),
};

export interface MigrationFile {
  id: number;
  name: string;
  sql: string;
  checksum: string;
}

/** A migration an archive has applied (its schema_migrations row). */
export interface AppliedMigration {
  id: number;
  checksum: string;
}

const FILE = /^(\d+)_[\w-]+\.sql$/;

/** The migration files of `dir`, in order; throws when two share a number. */
export function readMigrations(dir: string): MigrationFile[] {
  const files = readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort();
  const migrations = files.map((name) => {
    const sql = readFileSync(`${dir}/${name}`, 'utf8');
    return {
      id: Number(FILE.exec(name)![1]),
      name,
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    };
  });
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.id === migrations[i - 1]!.id) {
      throw new Error(
        `two migrations share the number ${migrations[i]!.id}: ${migrations[i - 1]!.name}, ${migrations[i]!.name}`,
      );
    }
  }
  return migrations;
}
