// The I/O behind /readyz: each probe is bounded in time and turns its failure into a message, for
// readiness.ts to judge.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { coerceError } from '../errors/index.js';
import { pingRedis, type RedisTarget } from '../redis/connection.js';
import { readMigrations } from '../store/sqlite/migrate.js';
import type { SqliteStore } from '../store/sqlite/sqlite-store.js';
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
  const file = store.dialect === 'sqlite' ? resolve(store.location) : store.location;
  const [redis, archive, migrations, schedulers] = await Promise.all([
    attempt(async () => {
      if (!(await pingRedis(deps.redis.target, timeoutMs))) throw new Error(`no PONG within ${timeoutMs} ms`);
      return true as const;
    }),
    attempt(async () => {
      if (store.dialect !== 'sqlite') {
        // A server: one round trip through the pool answers whether it is reachable.
        await within(
          store.ledger.get({ source: 'origin', zone: 0, day: '1970-01-01' }),
          timeoutMs,
          'the database',
        );
        return true as const;
      }
      const { db } = (store as SqliteStore).archive;
      if (!db.open) throw new Error('the database connection is closed');
      if (db.readonly) throw new Error('the database connection is read-only');
      // SQLite writes the -wal and -shm files beside the database: the directory must be writable too.
      await access(file, constants.W_OK);
      await access(dirname(file), constants.W_OK);
      return true as const;
    }),
    attempt(async () => {
      if (store.dialect === 'sqlite') {
        const { db } = (store as SqliteStore).archive;
        return {
          files: readMigrations(),
          applied: db.prepare('SELECT id, checksum FROM schema_migrations').all() as Array<{
            id: number;
            checksum: string;
          }>,
        };
      }
      const { POSTGRES_MIGRATIONS_DIR } = await import('../store/postgres/migrate.js');
      const applied = await within(
        store.queries.readOnly('SELECT id, checksum FROM schema_migrations', { timeoutMs }, async (c) =>
          (await c.next(10_000)).map((r) => ({ id: Number(r[0]), checksum: String(r[1]) })),
        ),
        timeoutMs,
        'reading the applied migrations',
      );
      return { files: readMigrations(POSTGRES_MIGRATIONS_DIR), applied };
    }),
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
  return { redisDisplay: deps.redis.display, redis, archivePath: file, archive, migrations, schedulers };
}
