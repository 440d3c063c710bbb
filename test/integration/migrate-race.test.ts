// Two processes starting on one new SQLite archive at once (two `edgelog run`, or `run` and `sync`) both
// migrate it. The one that read the record first and got the write lock second must find the migrations
// applied, not run them again ("table … already exists", which once made a worker exit 1 at start).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { readMigrations } from '../../src/store/migration-files.js';
import { migrate, MIGRATIONS_DIR } from '../../src/store/sqlite/migrate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The other process. migrate() reads the record, then opens a transaction per migration; the first
// transaction it asks for is held back (it says so, then waits for the go file) until this process has
// applied everything. So it has read "nothing applied" and takes the write lock only after, every time,
// however the two processes are scheduled. Then it prints its results as JSON.
const MIGRATOR = `
const { existsSync } = await import('node:fs');
const [{ openDatabase }, { migrate }] = await Promise.all([
  import('./dist/store/sqlite/database.js'),
  import('./dist/store/sqlite/migrate.js'),
]);
const [path, go] = process.argv.slice(1);
const db = openDatabase(path);
const transaction = db.transaction.bind(db);
let held = false;
db.transaction = (fn) => {
  if (!held) {
    held = true;
    process.stdout.write('read the record\\n');
    const tick = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(go)) Atomics.wait(tick, 0, 0, 10);
  }
  return transaction(fn);
};
process.stdout.write(JSON.stringify(migrate(db)) + '\\n');
db.close();
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('a migration applied by another process after this one read the record is not run again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-migrate-race-'));
  dirs.push(dir);
  const path = join(dir, 'archive.db');
  const go = join(dir, 'go');
  const child = spawn(process.execPath, ['--input-type=module', '-e', MIGRATOR, path, go], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('read the record\n') && resolve());
    child.once('exit', (code) => reject(new Error(`migrator exited ${code} before migrating: ${out}`)));
  });
  // It has read "nothing applied": apply everything here, then let it take the write lock.
  const holder = openDatabase(path);
  const mine = migrate(holder);
  holder.close();
  writeFileSync(go, '');
  expect(await exited).toBe(0);
  const theirs = JSON.parse(out.split('\n')[1]!) as Array<{ name: string; status: string; error?: string }>;
  const names = readMigrations(MIGRATIONS_DIR).map((m) => m.name);
  expect(mine.map((r) => r.status)).toEqual(names.map(() => 'applied'));
  expect(theirs).toEqual(
    names.map((name, i) => ({ id: readMigrations(MIGRATIONS_DIR)[i]!.id, name, status: 'already-applied' })),
  );
  const db = openDatabase(path, { readonly: true });
  expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(names.length);
  db.close();
});
