// A newcomer's first run: no Redis where the configuration says, so edgelog starts its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
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

describe('embedded Redis', () => {
  it('starts a private redis-server under the data directory when the configured one is unreachable, and reuses it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-embedded-'));
    const config = parseConfig({
      redis: { url: `redis://127.0.0.1:${await freePort()}` },
      database: { path: join(dir, 'data', 'e.db') },
    });
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
    const port = await freePort();
    const config = parseConfig({
      redis: { url: `redis://127.0.0.1:${port}`, embedded: false },
      database: { path: join(dir, 'e.db') },
    });
    await expect(resolveRedis(config, silentLogger())).rejects.toThrow(
      `Redis at redis://127.0.0.1:${port} is unreachable: start it, or set redis.url / REDIS_URL to a running Redis`,
    );
  });
});
