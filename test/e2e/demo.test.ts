// `edgelog demo`, the README's first command, as a newcomer runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { createTestDatabase, testServer, type TestDatabase } from '../postgres/support/server.js';
import { runCli } from '../support/cli.js';
import { describeStores } from '../support/stores.js';

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

async function ledgerStates(dir: string, db: TestDatabase | undefined): Promise<string[]> {
  if (!db) {
    const sqlite = openDatabase(join(dir, 'data', 'edgelog.db'), { readonly: true });
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
      const env = { REDIS_URL: redis.display, ...(url ? { EDGELOG_DATABASE_URL: url.href } : {}) };
      const r = await runCli(['demo', '--log-level', 'warn', '--entries', '300'], { cwd: dir, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Syncing 12 zone-days (the last three UTC days) through the job queue');
      expect(r.stdout).toMatch(
        /12 days, \d+ pages, [\d,]+ entries, [\d,]+ new, \d+ malformed, 0 quarantined, 0 incomplete, 0 expired, 0 failed/,
      );
      // Every sample query ran on this store and found rows (a header, a rule, at least one row).
      const tables = sampleTables(r.stdout);
      expect([...tables.keys()]).toHaveLength(3);
      for (const [title, lines] of tables) expect(lines.length, title).toBeGreaterThanOrEqual(3);
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
      const status = await runCli(['status'], { cwd: dir, env });
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^origin +101 +\d{4}-\d\d-\d\dT/m);
      expect(r.stdout).toContain('  npx edgelog status\n');
    } finally {
      await db?.drop();
    }
  });
});
