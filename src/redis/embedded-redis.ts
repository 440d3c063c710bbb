// Starts a private redis-server: for tests (no persistence, a free loopback port) and for a newcomer's
// first run when the configured Redis is unreachable (a unix socket under the data directory, AOF on).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EdgelogError } from '../errors/index.js';
import { DATA_DIR_MODE, PRIVATE_DIR_MODE } from '../file-modes.js';
import { pingRedis, type RedisTarget } from './connection.js';

export interface EmbeddedRedis {
  target: RedisTarget;
  /** Human-readable location, e.g. `redis://127.0.0.1:41234` or `unix:data/redis/redis.sock`. */
  display: string;
  /** Stops the server if this process started it; resolves once it has exited. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** Working directory of the server (AOF files live here when persistent). */
  dir: string;
  /** Keep data across restarts (AOF). @defaultValue false */
  persistent?: boolean;
  /** Listen on a unix socket in `dir` instead of a loopback TCP port. @defaultValue false */
  unixSocket?: boolean;
  /** TCP port; 0 or absent picks a free one. */
  port?: number;
  /** @defaultValue "redis-server" */
  binary?: string;
}

/** True when `redis-server` can be run. */
export function redisServerAvailable(binary = 'redis-server'): boolean {
  return spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === 'object' && addr ? resolvePort(addr.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startRedisServer(opts: StartRedisOptions): Promise<EmbeddedRedis> {
  const binary = opts.binary ?? 'redis-server';
  if (!redisServerAvailable(binary)) {
    throw new EdgelogError(
      `redis-server is not installed: install it (Debian: apt-get install redis-server) or set redis.url / REDIS_URL to a running Redis`,
    );
  }
  const dir = resolve(opts.dir);
  // The AOF holds the queue: the owner's alone. The data directory above it is the archive's.
  mkdirSync(dirname(dir), { recursive: true, mode: DATA_DIR_MODE });
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const socket = join(dir, 'redis.sock');
  const target: RedisTarget = opts.unixSocket
    ? { path: socket }
    : { host: '127.0.0.1', port: opts.port || (await freePort()) };

  // A server left running by an earlier process on the same socket is reused, not duplicated.
  if (opts.unixSocket && existsSync(socket) && (await pingRedis(target))) {
    return { target, display: `unix:${socket}`, stop: async () => {} };
  }

  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    opts.unixSocket ? '0' : String((target as { port: number }).port),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    opts.persistent ? 'yes' : 'no',
    '--maxmemory-policy',
    'noeviction',
    ...(opts.unixSocket ? ['--unixsocket', socket, '--unixsocketperm', '700'] : []),
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));

  const display = opts.unixSocket
    ? `unix:${socket}`
    : `redis://127.0.0.1:${(target as { port: number }).port}`;
  await waitReady(child, target, () => output);
  return {
    target,
    display,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitReady(child: ChildProcess, target: RedisTarget, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) {
      throw new EdgelogError(
        `redis-server exited at start (code ${child.exitCode}): ${output().trim().slice(-500)}`,
      );
    }
    if (await pingRedis(target)) return;
    await sleep(25);
  }
  child.kill('SIGKILL');
  throw new EdgelogError(
    `redis-server did not accept connections within 5 s: ${output().trim().slice(-500)}`,
  );
}
