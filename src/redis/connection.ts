// Where Redis is and how to reach it: a URL from the config, or a unix socket of an embedded server.
import { Redis } from 'ioredis';

export type RedisTarget = { url: string } | { path: string } | { host: string; port: number };

/** The connection settings edgelog uses; a plain object both ioredis and BullMQ accept. */
export interface ConnectionSettings {
  host?: string;
  port?: number;
  path?: string;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  maxRetriesPerRequest: null;
  enableReadyCheck: boolean;
  retryStrategy: (attempt: number) => number | null;
}

export interface ConnectionLife {
  /**
   * Once aborted, a lost connection is not made again: the client ends and the commands waiting on it
   * fail, so that a process stopping while Redis is away does not wait for it to come back.
   * @defaultValue reconnect for ever
   */
  until?: AbortSignal;
}

/**
 * Pure: the wait before reconnection attempt `attempt` (1, 2, …): quick at first, then every 2 s while
 * Redis is away. (BullMQ's own default grows to 20 s, which would leave the worker idle up to 20 s after
 * Redis is back.)
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(Math.max(1, attempt) * 200, 2_000);
}

/** ioredis options for BullMQ: workers must not give up on commands while Redis restarts. */
export function redisOptions(target: RedisTarget, life: ConnectionLife = {}): ConnectionSettings {
  const common = {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt: number) => (life.until?.aborted ? null : reconnectDelayMs(attempt)),
  };
  if ('url' in target) {
    const url = new URL(target.url);
    return {
      ...common,
      host: url.hostname || '127.0.0.1',
      port: url.port ? Number(url.port) : 6379,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    };
  }
  return { ...common, ...target };
}

/** Where a target points, for log lines (passwords left out). */
export function describeTarget(target: RedisTarget): string {
  if ('path' in target) return `unix:${target.path}`;
  if ('url' in target) {
    const url = new URL(target.url);
    url.password = '';
    url.username = '';
    return url.href;
  }
  return `redis://${target.host}:${target.port}`;
}

/** A client for one quick question: no retries, no offline queue, errors returned not thrown. */
async function ask<T>(target: RedisTarget, timeoutMs: number, question: (client: Redis) => Promise<T>) {
  const client = new Redis({
    ...redisOptions(target),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await question(client);
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** True when a Redis answers PING at the target within about a second. */
export async function pingRedis(target: RedisTarget, timeoutMs = 1000): Promise<boolean> {
  return (await ask(target, timeoutMs, (client) => client.ping())) === 'PONG';
}

/**
 * The server's maxmemory-policy, read from INFO (which hosted Redis services answer where they refuse
 * CONFIG GET), or null when it cannot be read.
 */
export async function maxmemoryPolicy(target: RedisTarget, timeoutMs = 1000): Promise<string | null> {
  const info = await ask(target, timeoutMs, (client) => client.info('memory'));
  return info === undefined ? null : infoField(info, 'maxmemory_policy');
}

/** Pure: one field of an INFO answer (`name:value` lines), or null. */
export function infoField(info: string, name: string): string | null {
  for (const line of info.split(/\r?\n/)) {
    if (line.startsWith(`${name}:`)) return line.slice(name.length + 1).trim();
  }
  return null;
}

/** Deletes every key under `prefix:` (what a test's or a benchmark's queues left); returns how many. */
export async function deleteKeysUnder(client: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
