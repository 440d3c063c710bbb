// `edgelog run` when its Redis goes away: a private redis-server of this test's own, on its own port,
// stopped and started again under the running worker (with its data, and empty). The ledger in SQLite is
// the truth; the worker must ride the outage out, log it once, and rebuild the work queue by itself.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { redisOptions, type RedisTarget } from '../../src/redis/connection.js';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import type { SimSource } from '../../src/simulator/index.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import type { LedgerRow } from '../../src/store/sqlite/ledger.js';
import { addDays, dayOf, type Day } from '../../src/time/utc-day.js';
import { startCli, writeConfig, type CliResult } from '../support/cli.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
let redis: EmbeddedRedis | undefined;
let stopRun: (() => Promise<CliResult>) | undefined;
afterEach(async () => {
  await stopRun?.();
  stopRun = undefined;
  await redis?.stop();
  redis = undefined;
  await h?.close();
  h = undefined;
});

const SCHEDULERS = ['guardian-201', 'maintenance', 'origin-101', 'shield-201'];

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs: number) {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(100)) {
    const v = await fn();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The ledger, or [] while the archive does not exist yet. */
function ledger(dbPath: string): LedgerRow[] {
  try {
    const db = openDatabase(dbPath, { readonly: true });
    try {
      return db.prepare('SELECT * FROM ingest_ledger ORDER BY source, log_date').all() as LedgerRow[];
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

const fetched = (r: LedgerRow) => r.state === 'partial' || r.state === 'complete';

async function schedulerKeys(target: RedisTarget, prefix: string): Promise<string[]> {
  const queue = new Queue('ingest', { connection: redisOptions(target), prefix });
  try {
    return (await queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();
  } finally {
    await queue.close();
  }
}

/** Starts `edgelog run` against `target`; the returned stop() sends SIGINT and waits for the exit. */
function startRun(hh: Harness, target: EmbeddedRedis, concurrency: number) {
  const config = writeConfig(hh.dir, {
    api: { ...hh.urls, accessKey: hh.sim.accessKey, retryBaseDelay: '10ms', retryMaxDelay: '100ms' },
    redis: { url: target.display, prefix: hh.prefix, embedded: false },
    database: { path: hh.dbPath },
    pullZones: [101],
    shieldZones: [201],
    schedule: { originLookbackDays: 1, shieldLookbackDays: 1 },
    worker: { shutdownTimeout: '5s', concurrency },
    log: { level: 'info' },
  });
  const run = startCli(['--config', config, 'run'], { cwd: hh.dir });
  let exited = false;
  void run.done.then(() => (exited = true));
  const stop = async () => {
    if (!exited) run.child.kill('SIGINT');
    return run.done;
  };
  stopRun = stop;
  return { run, stop, alive: () => !exited };
}

/** The archive's rows of one zone-day against the simulator's oracle (log ids, in order). */
function expectDayEqualsOracle(hh: Harness, source: SimSource, zone: number, day: Day): number {
  const db = openDatabase(hh.dbPath, { readonly: true });
  const [table, col] =
    source === 'origin' ? ['origin_error_logs', 'pull_zone_id'] : ['shield_event_logs', 'shield_zone_id'];
  const got = db
    .prepare(`SELECT log_id FROM ${table} WHERE ${col} = ? AND log_date = ? ORDER BY log_id`)
    .pluck()
    .all(zone, day) as string[];
  db.close();
  const want = hh.sim
    .entries(source, zone, day, Date.now())
    .filter((e) => e.keyable)
    .map((e) => e.logId)
    .sort();
  expect(got).toEqual(want);
  return got.length;
}

const lines = (stderr: string, msg: string) => stderr.split('\n').filter((l) => l.includes(msg)).length;

/** Waits until the worker has logged the outage: it is then in the state the test is about. */
const outageNoticed = (w: ReturnType<typeof startRun>) =>
  until(
    'the worker to log the outage',
    () => (lines(w.run.output().stderr, '"msg":"Redis unreachable') === 1 ? true : undefined),
    20_000,
  );

describe('edgelog run when Redis goes away', () => {
  it('rides out a Redis restart (AOF), logs the outage once, and keeps working', async () => {
    // The real clock: `run` plans from Date.now(), and the simulator must agree on what today is.
    h = await harness({ entriesPerDay: 1_000, pageSize: 100, latencyMs: 20, now: Date.now });
    const port = await freePort();
    const dir = join(h.dir, 'redis');
    redis = await startRedisServer({ dir, port, persistent: true });
    const w = startRun(h, redis, 2);
    await until(
      'the first days fetched',
      () => (ledger(h!.dbPath).filter(fetched).length >= 2 ? 1 : undefined),
      20_000,
    );

    await redis.stop();
    await outageNoticed(w);
    await sleep(3_000); // an outage of several reconnection attempts, each a failure the worker hears of
    expect(w.alive()).toBe(true);
    redis = await startRedisServer({ dir, port, persistent: true });
    const backAt = Date.now();

    // After the outage the worker plans every zone again (today is refreshed): a day finishes after it.
    const after = await until(
      'a day fetched after Redis is back',
      () => ledger(h!.dbPath).find((r) => fetched(r) && r.finished_at !== null && r.finished_at >= backAt),
      20_000,
    );
    expect(after.lease_owner).toBeNull();
    expect(await schedulerKeys(redis.target, h.prefix)).toEqual(SCHEDULERS);
    // The watch says Redis is back at its next check after its client reconnects (up to a few seconds);
    // the queue's own clients may finish a day before that, and stopping then would race the line.
    await until(
      'the worker to log that Redis is back',
      () => (lines(w.run.output().stderr, '"msg":"Redis back after') >= 1 ? true : undefined),
      20_000,
    );

    const result = await w.stop();
    expect(result.code).toBe(0);
    expect(lines(result.stderr, '"msg":"Redis unreachable')).toBe(1);
    expect(lines(result.stderr, '"msg":"Redis back after')).toBe(1);
    expect(result.stderr).not.toContain('"level":50'); // no error lines, per retry or otherwise
    expect(result.stderr).not.toContain('Redis holds none'); // it came back with its data
  });

  it('notices Redis came back empty, re-creates the schedulers once each, and re-plans from the ledger', async () => {
    // One job at a time, 10 Shield pages of 150 ms: the queue still holds days when Redis loses it all.
    h = await harness({ entriesPerDay: 1_000, pageSize: 100, latencyMs: 150, now: Date.now });
    const port = await freePort();
    redis = await startRedisServer({ dir: join(h.dir, 'redis-1'), port });
    const w = startRun(h, redis, 1);
    await until('one day fetched', () => (ledger(h!.dbPath).some(fetched) ? 1 : undefined), 20_000);
    expect(ledger(h.dbPath).filter(fetched).length).toBeLessThan(4);

    await redis.stop();
    await outageNoticed(w);
    redis = await startRedisServer({ dir: join(h.dir, 'redis-2'), port }); // a fresh, empty server
    const target = redis.target;
    expect(await schedulerKeys(target, h.prefix)).toEqual([]);

    expect(
      await until(
        'the schedulers re-created',
        async () => {
          const keys = await schedulerKeys(target, h!.prefix);
          return keys.length >= SCHEDULERS.length ? keys : undefined;
        },
        15_000,
      ),
    ).toEqual(SCHEDULERS);
    const yesterday = addDays(dayOf(Date.now()), -1);
    const rows = await until(
      'every day fetched, from the ledger',
      () => {
        const all = ledger(h!.dbPath);
        return all.length === 4 && all.every((r) => fetched(r) && r.lease_owner === null) ? all : undefined;
      },
      30_000,
    );
    expect(w.alive()).toBe(true);
    expect(await schedulerKeys(target, h.prefix)).toEqual(SCHEDULERS);

    const result = await w.stop();
    expect(result.code).toBe(0);
    expect(lines(result.stderr, 'Redis holds none of the worker state')).toBe(1);
    expect(lines(result.stderr, '"msg":"Redis unreachable')).toBe(1);

    // The ledger tells the truth, and yesterday (over) equals the oracle exactly.
    const db = openDatabase(h.dbPath, { readonly: true });
    for (const r of rows) {
      const table = r.source === 'origin' ? 'origin_error_logs' : 'shield_event_logs';
      const col = r.source === 'origin' ? 'pull_zone_id' : 'shield_zone_id';
      const n = db
        .prepare(`SELECT count(*) FROM ${table} WHERE ${col} = ? AND log_date = ?`)
        .pluck()
        .get(r.zone_id, r.log_date);
      expect(r.archived_entries).toBe(n);
    }
    db.close();
    expect(expectDayEqualsOracle(h, 'origin', 101, yesterday)).toBe(1_000);
    expect(expectDayEqualsOracle(h, 'shield', 201, yesterday)).toBe(1_000);
  });

  it('stops on SIGINT while Redis is away, within the shutdown bound', async () => {
    h = await harness({ entriesPerDay: 1_000, pageSize: 100, latencyMs: 20, now: Date.now });
    redis = await startRedisServer({ dir: join(h.dir, 'redis') });
    const w = startRun(h, redis, 2);
    await until('a day fetched', () => (ledger(h!.dbPath).some(fetched) ? 1 : undefined), 20_000);
    await redis.stop();
    await outageNoticed(w); // the worker is waiting for Redis now
    const stoppedAt = Date.now();
    const result = await w.stop(); // before, it never exited: the worker waited for Redis
    expect(result.code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000 + 5_000); // worker.shutdownTimeout, and closing
    expect(result.stderr).toContain('"msg":"stopped"');
    expect(lines(result.stderr, '"msg":"Redis unreachable')).toBe(1);
    // No day is left leased: the next start resumes every one of them.
    expect(ledger(h.dbPath).filter((r) => r.lease_owner !== null)).toEqual([]);
  });
});
