// `edgelog migrate-store` without a password in its argv (where every user of the host reads it: ps,
// /proc/<pid>/cmdline): the target comes from EDGELOG_DATABASE_URL or database.url when --to is left
// out, and a password given in --to gets one warning line on stderr. The password is never printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { runCli, writeConfig } from '../support/cli.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();
const PASSWORD = 'argv-pw-7f3k';
const withPassword = (url: string) => {
  const u = new URL(url);
  u.password = PASSWORD;
  return u.href;
};

describe.skipIf(server === null)('migrate-store and the target password', () => {
  let dir: string;
  let file: string;
  const dbs: TestDatabase[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-mspw-'));
    file = join(dir, 'source.db');
    await openArchive(file).close();
  });
  afterAll(async () => {
    for (const db of dbs) await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function database(): Promise<TestDatabase> {
    const db = await createTestDatabase(server!);
    dbs.push(db);
    return db;
  }

  /** Whether edgelog migrated the database (so the copy went there). */
  async function migrated(url: string): Promise<boolean> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t");
      return rows[0]!.t !== null;
    } finally {
      await c.end();
    }
  }

  const warnings = (stderr: string) => stderr.split('\n').filter((l) => /warning/i.test(l));

  it('copies into EDGELOG_DATABASE_URL when --to is left out, without a warning', async () => {
    const db = await database();
    const r = await runCli(['migrate-store', '--from', file], {
      cwd: dir,
      env: { EDGELOG_DATABASE_URL: withPassword(db.url) },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified: /m);
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    expect(await migrated(db.url)).toBe(true);
  });

  it('copies into database.url of --config the same way', async () => {
    const db = await database();
    const config = writeConfig(dir, { database: { url: withPassword(db.url) } }, 'with-url.json');
    const r = await runCli(['migrate-store', '--config', config, '--from', file], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await migrated(db.url)).toBe(true);
  });

  it('warns once on stderr when --to holds a password, and still never prints it', async () => {
    const db = await database();
    const r = await runCli(['migrate-store', '--from', file, '--to', withPassword(db.url)], { cwd: dir });
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      expect.stringMatching(
        /^edgelog: warning: --to holds a password, which other users of this host can read .*PGPASSWORD.*EDGELOG_DATABASE_URL/,
      ),
    ]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
  });

  it('gives no warning for a --to without a password', async () => {
    const db = await database();
    const r = await runCli(['migrate-store', '--from', file, '--to', db.url], { cwd: dir });
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([]);
  });

  it('says how to name the target when there is neither --to nor a configured URL', async () => {
    const r = await runCli(['migrate-store', '--from', file], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /--to postgres:\/\/user@host:port\/database .*EDGELOG_DATABASE_URL or database\.url/,
    );
  });
});
