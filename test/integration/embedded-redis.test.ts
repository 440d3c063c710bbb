// A newcomer's first run: no Redis URL configured and none on the default local port, so edgelog starts
// its own. A configured URL that does not answer is a mistake to report, never a reason to start one.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig, type Config } from '../../src/config/index.js';
import { silentLogger } from '../../src/logger.js';
import { pingRedis } from '../../src/redis/connection.js';
import { freePort } from '../../src/redis/embedded-redis.js';
import { findRedis, resolveRedis, type ResolvedRedis } from '../../src/redis/resolve.js';

let dir: string;
const started: ResolvedRedis[] = [];
afterEach(async () => {
  for (const r of started.splice(0)) await r.embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A configuration with no Redis URL, on a machine where nothing answers on the default local address:
 * the default is swapped for a free port (this machine may well run a Redis on 6379).
 */
async function noUrlConfigured(input: Parameters<typeof parseConfig>[0]): Promise<Config> {
  const config = parseConfig(input);
  expect(config.redisUrlFrom).toBeNull();
  return { ...config, redis: { ...config.redis, url: `redis://127.0.0.1:${await freePort()}` } };
}

describe('embedded Redis', () => {
  it('starts a private redis-server under the data directory when no URL is configured and the default does not answer, and reuses it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-embedded-'));
    const config = await noUrlConfigured({ database: { path: join(dir, 'data', 'e.db') } });
    const first = await resolveRedis(config, silentLogger());
    started.push(first);
    expect(first.display).toBe(`unix:${join(dir, 'data', 'redis', 'redis.sock')}`);
    expect(await pingRedis(first.target)).toBe(true);
    // A second process finds the same server instead of starting another.
    const second = await resolveRedis(config, silentLogger());
    started.push(second);
    expect(second.display).toBe(first.display);
    expect((await findRedis(config))?.display).toBe(first.display);
  });

  it('with embedded off, says what to do in one line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-embedded-'));
    const config = await noUrlConfigured({
      redis: { embedded: false },
      database: { path: join(dir, 'e.db') },
    });
    await expect(resolveRedis(config, silentLogger())).rejects.toThrow(
      `Redis at ${config.redis.url} is unreachable: start it, or set redis.url / REDIS_URL to a running Redis`,
    );
  });

  it('a configured redis.url that does not answer fails, naming the URL without its password and the key, and starts no private server', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-embedded-'));
    const port = await freePort();
    const file = join(dir, 'edgelog.config.json');
    writeFileSync(
      file,
      JSON.stringify({ redis: { url: `redis://:s3cret@127.0.0.1:${port}/2` }, database: { path: 'e.db' } }),
    );
    const config = loadConfig({ path: file, env: {} });
    expect(config.redis.embedded).toBe(true);
    const failure = resolveRedis(config, silentLogger()).then(started.push.bind(started));
    await expect(failure).rejects.toThrow(
      `Redis at redis://127.0.0.1:${port}/2 (redis.url in ${file}) does not answer: start it, or correct the URL. ` +
        'edgelog starts a private redis-server only when no Redis URL is configured',
    );
    await expect(failure).rejects.not.toThrow('s3cret');
    expect(existsSync(join(dir, 'redis'))).toBe(false);
    expect(await findRedis(config)).toBeNull();
  });

  it('a REDIS_URL that does not answer fails naming REDIS_URL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-embedded-'));
    const port = await freePort();
    const config = loadConfig({
      cwd: dir,
      env: { REDIS_URL: `redis://user:pw@127.0.0.1:${port}`, EDGELOG_DB: join(dir, 'e.db') },
    });
    const failure = resolveRedis(config, silentLogger()).then(started.push.bind(started));
    await expect(failure).rejects.toThrow(
      `Redis at redis://127.0.0.1:${port} (REDIS_URL) does not answer: start it, or correct the URL.`,
    );
    expect(existsSync(join(dir, 'redis'))).toBe(false);
  });
});
