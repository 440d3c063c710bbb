// Child processes of the bench: the simulator (its own process, so its CPU and memory are not
// edgelog's) and the edgelog CLI as a user runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { SyncSummary } from '../src/sync/sync-summary.js';
import { deleteKeysUnder, redisOptions } from '../src/redis/connection.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
/** The node flags of the bin's shebang. */
const BIN_NODE_FLAGS = ['--max-old-space-size=1024', '--max-semi-space-size=8'];

export interface SimArgs {
  originEntries?: number;
  shieldEntries?: number;
  pageSize?: number;
  latencyMs?: number;
  pullZones?: number[];
  shieldZones?: number[];
  /** A day to render before answering and serve from memory (see replay-cache.ts). */
  prerender?: string;
  tinyEntries?: boolean;
}

export interface RunningSim {
  urls: { baseUrl: string; originLogUrl: string; videoUrl: string; accessKey: string };
  stop(): Promise<void>;
}

export async function startSimulator(args: SimArgs): Promise<RunningSim> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'sim-server.ts'), JSON.stringify(args)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`simulator exited with code ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { urls: JSON.parse(line) as RunningSim['urls'], stop: () => stopChild(child) };
}

/** Sends SIGTERM (once the child is running) and resolves when it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const BENCH_PREFIX = `bench${process.pid}`;
const prefixes = [BENCH_PREFIX];

/** A key prefix of the bench's own (removed at the end), for a run that must start from an empty queue. */
export function freshPrefix(): string {
  const prefix = `${BENCH_PREFIX}-${prefixes.length}`;
  prefixes.push(prefix);
  return prefix;
}

/**
 * Removes the bench's jobs from Redis (the URL edgelog used: REDIS_URL or the default). When edgelog
 * fell back to an embedded server, that one is gone with its data directory and there is nothing to do.
 */
export async function cleanBenchKeys(): Promise<number> {
  const client = new Redis({
    ...redisOptions({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }),
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    let deleted = 0;
    for (const prefix of prefixes) deleted += await deleteKeysUnder(client, prefix);
    return deleted;
  } catch {
    return 0;
  } finally {
    client.disconnect();
  }
}

export interface BenchConfig {
  dir: string;
  sim: RunningSim;
  database: string;
  /** A PostgreSQL archive (database.url) instead of the SQLite file at `database`. */
  databaseUrl?: string;
  /** Redis key prefix; one under the bench's own (removed at the end) unless set. */
  prefix?: string;
  pullZones: number[];
  shieldZones: number[];
  concurrency?: number;
  /** For `edgelog run` processes: schedule.finalizeDelay 0 s and no metrics server. */
  forRun?: boolean;
  /** worker.pageThreads; unset takes edgelog's default. */
  pageThreads?: number;
  /** api.connections. @defaultValue max(16, concurrency) */
  connections?: number;
}

/**
 * The history of the config's archive, its own: archives beside each other in one directory (the bench's
 * main-thread run) or PostgreSQL databases made one after another would otherwise share one root and its
 * watermark. Absolute, as an archive on PostgreSQL needs it.
 */
function historyOf(c: BenchConfig): string {
  const db = c.databaseUrl ? `-${new URL(c.databaseUrl).pathname.slice(1)}` : '';
  return `${resolve(c.database).replace(/\.db$/, '')}${db}-history`;
}

/** Writes a configuration file for the CLI and returns its path. */
export function writeBenchConfig(c: BenchConfig, name = 'edgelog.config.json'): string {
  const path = join(c.dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      api: { ...c.sim.urls, connections: c.connections ?? Math.max(16, c.concurrency ?? 0) },
      redis: { prefix: c.prefix ?? BENCH_PREFIX },
      database: { path: c.database, ...(c.databaseUrl ? { url: c.databaseUrl } : {}) },
      history: { path: historyOf(c) },
      pullZones: c.pullZones,
      shieldZones: c.shieldZones,
      worker: {
        concurrency: c.concurrency ?? 4,
        ...(c.pageThreads === undefined ? {} : { pageThreads: c.pageThreads }),
      },
      // For `edgelog run`: past days complete on their first pass, and no metrics port to share.
      ...(c.forRun ? { schedule: { finalizeDelay: '0s' }, metrics: { listen: null } } : {}),
      log: { level: 'warn' },
    }),
  );
  return path;
}

/**
 * Runs `edgelog sync … --json` and returns its summary. With `nodeFlags` (`--cpu-prof`…), through node
 * with those flags beside the bin's own (a shebang takes no more, NODE_OPTIONS refuses --cpu-prof).
 */
export async function runSync(
  configPath: string,
  args: string[],
  nodeFlags: string[] = [],
): Promise<SyncSummary> {
  const cli = ['--config', configPath, 'sync', '--json', ...args];
  // The bin itself, as a user runs it (its shebang sets the heap bound), not `node bin/edgelog.js`.
  const [command, argv] =
    nodeFlags.length === 0 ? [BIN, cli] : [process.execPath, [...BIN_NODE_FLAGS, ...nodeFlags, BIN, ...cli]];
  const child = spawn(command, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`edgelog sync ${args.join(' ')} exited with ${code}: ${out.slice(0, 500)}`);
  return JSON.parse(out) as SyncSummary;
}

export interface RunningWorker {
  /** Sends SIGINT and resolves with the exit code once the process has stopped. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `edgelog run` (a worker on the configured queue until SIGINT). */
export function startRun(configPath: string): RunningWorker {
  const child = spawn(BIN, ['--config', configPath, 'run'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** A process's peak (VmHWM) and current (VmRSS) resident memory in MiB, from /proc (Linux). */
export function rssOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peak: Math.round(kib('VmHWM') / 1024), now: Math.round(kib('VmRSS') / 1024) };
}
