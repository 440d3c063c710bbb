// Wiring for integration tests: the simulator on loopback, a temp archive, a unique Redis prefix on the
// test run's private redis-server, and an engine built exactly as the CLI builds it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { parseConfig, type Config, type ConfigInput } from '../../src/config/index.js';
import { startEngine, type Engine } from '../../src/engine.js';
import { silentLogger } from '../../src/logger.js';
import { deleteKeysUnder, redisOptions } from '../../src/redis/connection.js';
import { Simulator, type SimulatorOptions, type SimUrls } from '../../src/simulator/index.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { dayOf, type Day } from '../../src/time/utc-day.js';
import { postgresReader, sqliteReader, type ArchiveReader } from './archive-reader.js';

/** A fixed clock shared by simulator and engine: noon UTC, so "today" and the Shield window are stable. */
export const NOW = Date.parse('2026-11-22T12:00:00.000Z');
export const TODAY: Day = dayOf(NOW);

/** The Redis URL of this test run (private server, or REDIS_URL). */
export function redisUrl(): string {
  const url = inject('redisUrl');
  return url;
}

export interface Harness {
  dir: string;
  dbPath: string;
  prefix: string;
  sim: Simulator;
  urls: SimUrls;
  /** Builds a configuration pointing at the simulator, the temp archive and the private Redis. */
  config(extra?: ConfigInput): Config;
  /** Starts an engine (registered for cleanup). */
  engine(extra?: ConfigInput, now?: () => number): Promise<Engine>;
  /** A read connection to the archive (SQLite only). */
  db(): Db;
  /** The PostgreSQL archive's URL, when the harness has one instead of the SQLite file. */
  databaseUrl: string | undefined;
  /** A read connection to the archive, SQLite or PostgreSQL (closed by close()). */
  reader(): Promise<ArchiveReader>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** A PostgreSQL archive (database.url) instead of the temp SQLite file. */
  databaseUrl?: string;
  /** Run last by close() (dropping that database, say). */
  onClose?: () => Promise<void>;
}

export async function harness(sim: SimulatorOptions = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-it-'));
  const dbPath = join(dir, 'edgelog.db');
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const simulator = new Simulator({ now: () => NOW, ...sim });
  const urls = await simulator.listen();
  const engines: Engine[] = [];
  const dbs: Db[] = [];
  const readers: ArchiveReader[] = [];
  const config = (extra: ConfigInput = {}) =>
    parseConfig({
      ...extra,
      api: {
        ...urls,
        accessKey: simulator.accessKey,
        retryBaseDelay: '10ms',
        retryMaxDelay: '100ms',
        retryAttempts: 4,
        ...extra.api,
      },
      redis: { url: redisUrl(), prefix, embedded: false, ...extra.redis },
      database: {
        path: dbPath,
        ...(opts.databaseUrl ? { url: opts.databaseUrl } : {}),
        ...extra.database,
      },
      // Where the default puts it for SQLite; PostgreSQL's configuration must name it (history-path.ts).
      history: { path: join(dir, 'history'), ...extra.history },
      pullZones: extra.pullZones ?? [101],
      shieldZones: extra.shieldZones ?? [201],
      log: { level: 'silent' },
    });
  return {
    dir,
    dbPath,
    prefix,
    sim: simulator,
    urls,
    config,
    async engine(extra = {}, now = () => NOW) {
      const engine = await startEngine(config(extra), silentLogger(), { now });
      engines.push(engine);
      return engine;
    },
    db() {
      const db = openDatabase(dbPath, { readonly: true });
      dbs.push(db);
      return db;
    },
    databaseUrl: opts.databaseUrl,
    async reader() {
      const reader = opts.databaseUrl ? await postgresReader(opts.databaseUrl) : sqliteReader(dbPath);
      readers.push(reader);
      return reader;
    },
    async close() {
      for (const e of engines.splice(0)) await e.close();
      for (const d of dbs.splice(0)) d.close();
      for (const r of readers.splice(0)) await r.close();
      await simulator.close();
      await deleteKeys(prefix);
      // On PostgreSQL, nothing may have been written to the SQLite file: the archive went where it was told.
      const strayFile = opts.databaseUrl !== undefined && existsSync(dbPath);
      rmSync(dir, { recursive: true, force: true });
      await opts.onClose?.();
      if (strayFile) throw new Error(`a PostgreSQL harness found a SQLite archive at ${dbPath}`);
    },
  };
}

/** Removes every Redis key under a prefix (what a test's queues left). */
export async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis({ ...redisOptions({ url: redisUrl() }), maxRetriesPerRequest: 3 });
  try {
    await deleteKeysUnder(client, prefix);
  } finally {
    client.disconnect();
  }
}
