// At start, a Redis whose maxmemory-policy is not noeviction gets one warning naming the fix. The test
// changes the policy of a redis-server of its own, not the run's shared one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { infoField, maxmemoryPolicy, redisOptions } from '../../src/redis/connection.js';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { evictionPolicyWarning, resolveRedis } from '../../src/redis/resolve.js';

let dir: string;
let server: EmbeddedRedis;
let admin: Redis;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-policy-'));
  server = await startRedisServer({ dir });
  admin = new Redis(redisOptions(server.target));
});

afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** resolveRedis against the test's server; returns the log records it wrote. */
async function resolveAndLog(): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
  const config = parseConfig({
    redis: { url: server.display, embedded: false },
    database: { path: join(dir, 'x.db') },
  });
  const resolved = await resolveRedis(config, logger);
  expect(resolved.display).toBe(server.display);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('maxmemory-policy at start', () => {
  it('warns once, naming the policy and the fix, when it is not noeviction', async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    expect(await maxmemoryPolicy(server.target)).toBe('allkeys-lru');
    const records = await resolveAndLog();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 40, maxmemoryPolicy: 'allkeys-lru' });
    expect(records[0]!.msg).toContain('maxmemory-policy allkeys-lru');
    expect(records[0]!.msg).toContain('CONFIG SET maxmemory-policy noeviction');
  });

  it('says nothing under noeviction', async () => {
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    expect(await resolveAndLog()).toEqual([]);
  });
});

describe('evictionPolicyWarning', () => {
  it.each([
    ['noeviction', false],
    [null, false],
    ['allkeys-lru', true],
    ['volatile-lru', true],
    ['volatile-ttl', true],
  ])('%s → warning %s', (policy, warns) => {
    expect(evictionPolicyWarning(policy, 'redis://h:6379') !== null).toBe(warns);
  });
});

describe('infoField', () => {
  it('reads one field of an INFO answer', () => {
    const info = '# Memory\r\nused_memory:1000\r\nmaxmemory_policy:noeviction\r\n';
    expect(infoField(info, 'maxmemory_policy')).toBe('noeviction');
    expect(infoField(info, 'used_memory')).toBe('1000');
    expect(infoField(info, 'nosuch')).toBeNull();
  });
});
