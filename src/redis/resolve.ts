// Finds a Redis to use: the configured one, or (first run: no URL configured, nothing answering on the
// default one) a private redis-server under the data directory. A configured URL that does not answer is
// a mistake to report: a private server there would leave the worker on a queue no one else sees.
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/index.js';
import { EdgelogError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { describeTarget, maxmemoryPolicy, pingRedis, type RedisTarget } from './connection.js';
import { redisServerAvailable, startRedisServer, type EmbeddedRedis } from './embedded-redis.js';

export interface ResolvedRedis {
  target: RedisTarget;
  display: string;
  /** Set when this process started (or reused) the private server. */
  embedded?: EmbeddedRedis;
}

/** Where a private server for this configuration lives: beside the database. */
export function embeddedRedisDir(config: Config): string {
  return join(dirname(resolve(config.database.path)), 'redis');
}

/**
 * A reachable Redis without starting one: the URL, else (no URL configured) a private server already
 * running.
 */
export async function findRedis(config: Config): Promise<ResolvedRedis | null> {
  const configured: RedisTarget = { url: config.redis.url };
  if (await pingRedis(configured)) return { target: configured, display: describeTarget(configured) };
  if (config.redisUrlFrom !== null) return null;
  const socket: RedisTarget = { path: join(embeddedRedisDir(config), 'redis.sock') };
  if (await pingRedis(socket)) return { target: socket, display: describeTarget(socket) };
  return null;
}

/**
 * Pure: the warning a Redis with this maxmemory-policy deserves, or null. BullMQ needs `noeviction`:
 * under any other policy Redis may drop job and lock keys when memory runs short, and jobs vanish or
 * run twice. An unreadable policy (null) is not judged.
 */
export function evictionPolicyWarning(policy: string | null, where: string): string | null {
  if (policy === null || policy === 'noeviction') return null;
  return (
    `Redis at ${where} has maxmemory-policy ${policy}; BullMQ needs noeviction, or Redis may evict job keys ` +
    `under memory pressure: run CONFIG SET maxmemory-policy noeviction (and set it in redis.conf)`
  );
}

export async function resolveRedis(config: Config, logger: Logger): Promise<ResolvedRedis> {
  const configured: RedisTarget = { url: config.redis.url };
  if (await pingRedis(configured)) {
    const display = describeTarget(configured);
    const policy = await maxmemoryPolicy(configured);
    const warning = evictionPolicyWarning(policy, display);
    if (warning) logger.warn({ maxmemoryPolicy: policy }, warning);
    return { target: configured, display };
  }
  const where = describeTarget(configured);
  if (config.redisUrlFrom !== null) {
    throw new EdgelogError(
      `Redis at ${where} (${config.redisUrlFrom}) does not answer: start it, or correct the URL. ` +
        'edgelog starts a private redis-server only when no Redis URL is configured',
    );
  }
  if (!config.redis.embedded) {
    throw new EdgelogError(
      `Redis at ${where} is unreachable: start it, or set redis.url / REDIS_URL to a running Redis`,
    );
  }
  if (!redisServerAvailable()) {
    throw new EdgelogError(
      `Redis at ${where} is unreachable and redis-server is not installed: install it (Debian: apt-get install redis-server) or set REDIS_URL`,
    );
  }
  const embedded = await startRedisServer({
    dir: embeddedRedisDir(config),
    unixSocket: true,
    persistent: true,
  });
  logger.warn(
    { configured: where, embedded: embedded.display },
    `Redis at ${where} is unreachable; using a private redis-server at ${embedded.display}`,
  );
  return { target: embedded.target, display: embedded.display, embedded };
}
