// `edgelog demo`, the README's first command, as a newcomer runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { runCli } from '../support/cli.js';

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

describe('edgelog demo', () => {
  it('syncs three days of four zones through the queue and shows what landed', async () => {
    const r = await runCli(['demo', '--log-level', 'warn', '--entries', '300'], {
      cwd: dir,
      env: { REDIS_URL: redis.display },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Syncing 12 zone-days (the last three UTC days) through the job queue');
    expect(r.stdout).toMatch(
      /12 days, \d+ pages, [\d,]+ entries, [\d,]+ new, \d+ malformed, 0 quarantined, 0 incomplete, 0 expired, 0 failed/,
    );
    expect(r.stdout).toContain('Sample alert rule origin-5xx-spike on zone 101:');
    // Without a configuration of one's own, the demo fills the default archive, so the next steps just work.
    const db = openDatabase(join(dir, 'data', 'edgelog.db'), { readonly: true });
    const states = db.prepare('SELECT state FROM ingest_ledger').pluck().all() as string[];
    db.close();
    // Today is partial and the days before complete, except yesterday for an hour after midnight.
    expect(states).toHaveLength(12);
    expect(states.filter((state) => state === 'partial').length).toBeGreaterThanOrEqual(4);
    expect(states.every((state) => state === 'partial' || state === 'complete')).toBe(true);
    const status = await runCli(['status'], { cwd: dir, env: { REDIS_URL: redis.display } });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^origin +101 +\d{4}-\d\d-\d\dT/m);
    expect(r.stdout).toContain('  npx edgelog status\n');
  });
});
