// The I/O behind /readyz: each probe is bounded in time and turns its failure into a message, for
// readiness.ts to judge.
import { coerceError } from '../errors/index.js';
import { pingRedis, type RedisTarget } from '../redis/connection.js';
import type { ArchiveStore } from '../store/store.js';
import { within } from './collect.js';
import type { Probe, ProbeResults } from './readiness.js';

/** The slice of a BullMQ Queue the scheduler probe reads. */
export interface SchedulerQueue {
  /** Whether its Redis connection is up now. */
  connected(): Promise<boolean>;
  getJobSchedulers(start?: number, end?: number): Promise<Array<{ key: string }>>;
}

export interface ProbeDeps {
  redis: { target: RedisTarget; display: string };
  store: ArchiveStore;
  /** The ingest queue, whose schedulers `edgelog run` reconciles. */
  queue: SchedulerQueue;
  /** Scheduler ids the configuration wants (queue/schedules.ts). */
  wantedSchedulers: readonly string[];
  /** Bound on each probe. @defaultValue 1000 */
  timeoutMs?: number;
}

async function attempt<T>(fn: () => Promise<T>): Promise<Probe<T>> {
  try {
    return { ok: await fn() };
  } catch (err) {
    return { error: coerceError(err).message };
  }
}

export async function probe(deps: ProbeDeps): Promise<ProbeResults> {
  const timeoutMs = deps.timeoutMs ?? 1000;
  const { store } = deps;
  const [redis, archive, migrations, schedulers] = await Promise.all([
    attempt(async () => {
      if (!(await pingRedis(deps.redis.target, timeoutMs))) throw new Error(`no PONG within ${timeoutMs} ms`);
      return true as const;
    }),
    attempt(async () => {
      await within(store.health.writable(), timeoutMs, 'the database');
      return true as const;
    }),
    attempt(() => within(store.health.migrations(timeoutMs), timeoutMs, 'reading the applied migrations')),
    attempt(async () => {
      // The queue's connection waits for Redis forever: ask only one that is up.
      const present = await within(
        (async () => {
          if (!(await deps.queue.connected())) throw new Error('Redis is not connected');
          return deps.queue.getJobSchedulers(0, -1);
        })(),
        timeoutMs,
        'listing the schedulers',
      );
      return { wanted: deps.wantedSchedulers, present: present.map((s) => s.key) };
    }),
  ]);
  return {
    redisDisplay: deps.redis.display,
    redis,
    archivePath: store.location,
    archive,
    migrations,
    schedulers,
  };
}
