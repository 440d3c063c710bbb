// One private redis-server per test run (no persistence, a free loopback port), unless REDIS_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startRedisServer } from '../../src/redis/embedded-redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.REDIS_URL) {
    project.provide('redisUrl', process.env.REDIS_URL);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-redis-'));
  const server = await startRedisServer({ dir });
  project.provide('redisUrl', server.display);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
