// Two processes starting on one new SQLite archive at once (two `edgelog run`, or `run` and `sync`) both
// migrate it. The one that read the record first and got the write lock second must find the migrations
// applied, not run them again ("table … already exists", which once made a worker exit 1 at start).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { migrate, readMigrations } from '../../src/store/sqlite/migrate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The other process: says when it is about to migrate, then prints the results as JSON.
const MIGRATOR = `
const [{ openDatabase }, { migrate }] = await Promise.all([
  import('./dist/store/sqlite/database.js'),
  import('./dist/store/sqlite/migrate.js'),
]);
const db = openDatabase(process.argv[1]);
process.stdout.write('migrating\\n');
process.stdout.write(JSON.stringify(migrate(db)) + '\\n');
db.close();
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('a migration applied by another process while this one waited for the write lock is not run again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-migrate-race-'));
  dirs.push(dir);
  const path = join(dir, 'archive.db');
  const holder = openDatabase(path);
  // The record exists and is empty; this connection then holds the write lock, so the other process
  // reads "nothing applied" and waits (busy timeout 5 s) at its first migration.
  holder.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  holder.exec('BEGIN IMMEDIATE');
  const child = spawn(process.execPath, ['--input-type=module', '-e', MIGRATOR, path], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('migrating\n') && resolve());
    child.once('exit', (code) => reject(new Error(`migrator exited ${code} before migrating: ${out}`)));
  });
  // Let it read the record and block on the lock, then apply everything here and let go.
  await new Promise((r) => setTimeout(r, 300));
  holder.exec('COMMIT');
  const mine = migrate(holder);
  holder.close();
  expect(await exited).toBe(0);
  const theirs = JSON.parse(out.split('\n')[1]!) as Array<{ name: string; status: string; error?: string }>;
  const names = readMigrations().map((m) => m.name);
  expect(mine.map((r) => r.status)).toEqual(names.map(() => 'applied'));
  expect(theirs).toEqual(
    names.map((name, i) => ({ id: readMigrations()[i]!.id, name, status: 'already-applied' })),
  );
  const db = openDatabase(path, { readonly: true });
  expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(names.length);
  db.close();
});
