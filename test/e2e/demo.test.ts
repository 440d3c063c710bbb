// `edgelog demo`, the README's first command, as a newcomer runs it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { createTestDatabase, testServer, type TestDatabase } from '../postgres/support/server.js';
import { runCli } from '../support/cli.js';
import { describePostgres, describeStores } from '../support/stores.js';

// The demo's Redis prefix is fixed ("edgelog-demo"): on the test run's shared Redis, two runs (or a
// developer's demo) would share its keys. It gets a redis-server of its own instead.
const dir = mkdtempSync(join(tmpdir(), 'edgelog-demo-'));
let redis: EmbeddedRedis;
beforeAll(async () => {
  redis = await startRedisServer({ dir: join(dir, 'redis') });
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const PASSWORD = 'demo-pw-not-shown';

/** The lines of the table printed under each sample query's title (header first), by title. */
function sampleTables(stdout: string): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  const blocks = stdout.split('\n\n');
  for (const block of blocks) {
    const [title, command, ...table] = block.split('\n');
    if (title?.endsWith(':') && command?.startsWith('  $ edgelog query ')) tables.set(title, table);
  }
  return tables;
}

async function ledgerStates(
  dir: string,
  db: TestDatabase | undefined,
  file = 'edgelog.db',
): Promise<string[]> {
  if (!db) {
    const sqlite = openDatabase(join(dir, 'data', file), { readonly: true });
    try {
      return sqlite.prepare('SELECT state FROM ingest_ledger').pluck().all() as string[];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<{ state: string }>('SELECT state FROM ingest_ledger')).rows.map(
      (r) => r.state,
    );
  } finally {
    await client.end();
  }
}

describeStores('edgelog demo', (store) => {
  it('syncs three days of four zones through the queue and shows what landed', async () => {
    const db = store === 'PostgreSQL' ? await createTestDatabase((await testServer())!) : undefined;
    try {
      const url = db && new URL(db.url);
      if (url) url.password = PASSWORD;
      // As the README runs it: `npx edgelog demo` (npm sets npm_command=exec), so the hints say `npx edgelog`.
      const env = { REDIS_URL: redis.display, npm_command: 'exec' };
      // A database for the demo is named on its command line (PGPASSWORD would keep the password off it).
      const args = ['demo', '--log-level', 'warn', '--entries', '300'];
      const r = await runCli(url ? [...args, '--database', url.href] : args, { cwd: dir, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Syncing 12 zone-days (the last three UTC days) through the job queue');
      expect(r.stdout).toMatch(
        /12 days, \d+ pages, [\d,]+ entries, [\d,]+ new, \d+ malformed, 0 quarantined, 0 incomplete, 0 expired, 0 failed/,
      );
      // Every sample query ran on this store and found rows (a header, a rule, at least one row).
      const tables = sampleTables(r.stdout);
      expect([...tables.keys()]).toHaveLength(4);
      for (const [title, lines] of tables) expect(lines.length, title).toBeGreaterThanOrEqual(3);
      // It ends with the settled days in the Parquet history, and a query answered from it: the three
      // days, the oldest from its files (a demo database of its own keeps its history apart too).
      expect(r.stdout).toMatch(/\n {2}compacted \d+ zone-days in [^\n]*B per entry\)\n/);
      const history = join(dir, 'data', db ? 'demo-history' : 'history');
      const oldest = addDays(dayOf(Date.now()), -2);
      // The oldest day merged into one part.
      const oldestDir = join(history, 'shield_event_logs', 'zone=201', `day=${oldest}`);
      expect(readdirSync(oldestDir).filter((n) => /^part-.*\.parquet$/.test(n))).toHaveLength(1);
      const perDay = tables.get(
        'Shield events per day, answered from the history (and the rows not yet in it):',
      );
      expect(perDay?.slice(1).map((line) => line.trim().split(/\s+/)[0])).toEqual([
        oldest,
        addDays(oldest, 1),
        addDays(oldest, 2),
      ]);
      expect(r.stdout).toContain('Sample alert rule origin-5xx-spike on zone 101:');
      // The archive line names the archive written: the file, or the database without its password.
      expect(r.stdout).toContain(`  archive        ${db ? `postgres://127.0.0.1` : join(dir, 'data')}`);
      if (db) expect(r.stdout).toContain(`/${db.name}\n`);
      expect(r.stdout).not.toContain(PASSWORD);
      // Without a configuration of one's own, the demo fills the default archive, so the next steps just work.
      const states = await ledgerStates(dir, db);
      // Today is partial and the days before complete, except yesterday for an hour after midnight.
      expect(states).toHaveLength(12);
      expect(states.filter((state) => state === 'partial').length).toBeGreaterThanOrEqual(4);
      expect(states.every((state) => state === 'partial' || state === 'complete')).toBe(true);
      const statusEnv = url
        ? { ...env, EDGELOG_DATABASE_URL: url.href, EDGELOG_HISTORY: join(dir, 'data', 'demo-history') }
        : env;
      const status = await runCli(['status'], { cwd: dir, env: statusEnv });
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^origin +101 +\d{4}-\d\d-\d\dT/m);
      const hint = db
        ? `EDGELOG_DATABASE_URL=postgres://postgres@127.0.0.1:5432/${db.name} EDGELOG_HISTORY=${join(dir, 'data', 'demo-history')} `
        : '';
      expect(r.stdout).toContain(`  ${hint}npx edgelog status\n`);
      // The simulator on a fixed port, and the configuration that points at it (init.test.ts runs it).
      expect(r.stdout).toContain('  npx edgelog simulate --port 8080\n');
      expect(r.stdout).toContain(
        '  npx edgelog init --simulator http://127.0.0.1:8080 --pull-zone 101 --shield-zone 201\n',
      );
    } finally {
      await db?.drop();
    }
  });
});

describePostgres('edgelog demo beside a configured archive', (_store, server) => {
  it('never writes into it, nor sends it the configured access key, and says how to read its own', async () => {
    const db = await createTestDatabase(server);
    const cwd = mkdtempSync(join(tmpdir(), 'edgelog-demo-configured-'));
    try {
      const env = {
        REDIS_URL: redis.display,
        EDGELOG_DATABASE_URL: db.url,
        EDGELOG_ACCESS_KEY: 'the-real-key',
      };
      const r = await runCli(['demo', '--log-level', 'warn', '--entries', '100'], { cwd, env });
      // Run as the installed bin (no npx): the hints say `edgelog`.
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`  archive        ${join(cwd, 'data', 'demo.db')}\n`);
      expect(r.stdout).toContain(`  your archive   ${db.url}: not touched (the demo writes its own)\n`);
      // The configured database holds nothing: no table was made, no row written.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
        );
        expect(rows[0]!.n).toBe('0');
      } finally {
        await client.end();
      }
      const states = await ledgerStates(cwd, undefined, 'demo.db');
      expect(states).toHaveLength(12);
      // The hint reads the demo's archive although EDGELOG_DATABASE_URL is set.
      expect(r.stdout).toContain(
        '  EDGELOG_DATABASE_URL= EDGELOG_DB=data/demo.db EDGELOG_HISTORY=data/demo-history edgelog status\n',
      );
      const status = await runCli(['status'], {
        cwd,
        env: {
          ...env,
          EDGELOG_DATABASE_URL: '',
          EDGELOG_DB: 'data/demo.db',
          EDGELOG_HISTORY: 'data/demo-history',
        },
      });
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^shield +201 +\d{4}-\d\d-\d\dT/m);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      await db.drop();
    }
  });
});
