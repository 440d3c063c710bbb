// The Redis watch and a bounded close, against a private redis-server of this test's own that it stops
// and starts (not the test run's shared one): the worker's state in Redis is put back when Redis returns
// or loses its data, an outage is logged once, and an engine closes while Redis is away.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type Engine } from '../../src/engine.js';
import { createLogger } from '../../src/logger.js';
import { redisOptions } from '../../src/redis/connection.js';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { markerKey, RedisWatch } from '../../src/redis/redis-watch.js';
import type { PlanJob } from '../../src/queue/jobs.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
let redis: EmbeddedRedis | undefined;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await redis?.stop();
  redis = undefined;
  await h?.close();
  h = undefined;
});

const SCHEDULERS = ['guardian-201', 'maintenance', 'origin-101', 'shield-201'];

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(100)) {
    const v = await fn();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** An engine on a private Redis, logging into `lines`. */
async function engineOn(server: EmbeddedRedis, lines: string[]): Promise<Engine> {
  h ??= await harness();
  const config = h.config({ redis: { url: server.display } });
  const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
  const engine = await startEngine(config, logger);
  cleanups.push(() => engine.close());
  return engine;
}

const count = (lines: string[], msg: string) => lines.filter((l) => l.includes(msg)).length;

describe('RedisWatch', () => {
  it('starts while Redis is away, restores when it is back, and again when it loses its data', async () => {
    const port = await freePort();
    redis = await startRedisServer({ dir: join(await harnessDir(), 'redis-1'), port });
    const lines: string[] = [];
    const engine = await engineOn(redis, lines);
    const schedulers = async () =>
      (await engine.runtime.queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();
    const watch = new RedisWatch({
      target: redis.target,
      prefix: h!.prefix,
      outage: engine.redisOutage,
      logger: engine.logger,
      restore: () => engine.runtime.replan(),
      intervalMs: 200,
    });
    cleanups.push(() => watch.stop());

    // Gone between the engine's start and the first restore (before, `run` exited with code 1 here).
    await redis.stop();
    await watch.start(); // resolves: the restore waits for Redis
    expect(count(lines, '"msg":"Redis unreachable')).toBe(1);

    redis = await startRedisServer({ dir: join(await harnessDir(), 'redis-1'), port });
    expect(
      await until('the schedulers', async () =>
        (await schedulers()).length === 4 ? schedulers() : undefined,
      ),
    ).toEqual(SCHEDULERS);
    const client = new Redis({ ...redisOptions(redis.target), maxRetriesPerRequest: 3 });
    cleanups.push(() => client.disconnect());
    expect(await client.exists(markerKey(h!.prefix))).toBe(1);
    await until('"Redis back"', () => Promise.resolve(count(lines, 'Redis back after') === 1 || undefined));

    // Flushed while reachable (no outage at all): the marker is gone, so the state is put back.
    await client.flushall();
    expect(await schedulers()).toEqual([]);
    expect(
      await until('the schedulers again', async () =>
        (await schedulers()).length === 4 ? schedulers() : undefined,
      ),
    ).toEqual(SCHEDULERS);
    expect(count(lines, 'Redis holds none of the worker state')).toBe(1);
    // A plan per zone came back too (the planner reads the ledger).
    const plans = (await engine.runtime.queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter(
      (j) => j.name === 'plan' && !j.repeatJobKey,
    );
    expect(plans.map((j) => `${(j.data as PlanJob).source}-${(j.data as PlanJob).zone}`).sort()).toEqual([
      'origin-101',
      'shield-201',
    ]);
    expect(count(lines, '"msg":"Redis unreachable')).toBe(1);
    expect(lines.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('an engine closes within a bound while Redis is away, its worker and queues included', async () => {
    redis = await startRedisServer({ dir: join(await harnessDir(), 'redis-2') });
    const lines: string[] = [];
    const engine = await engineOn(redis, lines);
    engine.runtime.startWorker();
    engine.alerts.notifier.startWorker();
    await engine.runtime.queue.getJobSchedulers(0, -1); // connected
    await redis.stop();
    await sleep(2_500); // the clients are between reconnection attempts now
    const started = Date.now();
    await engine.close();
    // worker.shutdownTimeout is 20 s by default; nothing is in hand, so the wait is Redis's alone: before,
    // it took all of it, and the process then stayed alive on the worker's timers.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(count(lines, '"msg":"Redis unreachable')).toBe(1);
  });
});

async function harnessDir(): Promise<string> {
  h ??= await harness();
  return h.dir;
}
