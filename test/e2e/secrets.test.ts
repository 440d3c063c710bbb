// The access key and hook secrets never leave the process in text, even when the API quotes the key
// back in its error bodies: not on the terminal, in a log line, in the archive's files, nor in Redis.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/redis/connection.js';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, startCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const KEY = 'sk-live-9f8e7d6c5b4a3921'; // configured, but not the simulator's: every request is refused
const HOOK_SECRET = 'hmac-secret-5a4b3c2d1e';

/** Every value under a Redis prefix, as text. */
async function redisText(prefix: string): Promise<string> {
  const client = new Redis({ ...redisOptions({ url: redisUrl() }), maxRetriesPerRequest: 3 });
  try {
    const parts: string[] = [];
    for (const key of await client.keys(`${prefix}:*`)) {
      parts.push(key);
      const type = await client.type(key);
      if (type === 'string') parts.push((await client.get(key)) ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)));
      else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
      else if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, 0, -1)));
      else if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')));
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}

/** Every file under a folder (the archive, its WAL), as bytes decoded loosely. */
function filesText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.json'))
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

describe('secrets', () => {
  it('an API that echoes the access key: the key is in no output, log line, archive file or Redis key', async () => {
    h = await harness({ entriesPerDay: 50, echoKey: true });
    // The premise: the simulator really does quote the key it was sent.
    const echoed = await request(`${h.urls.baseUrl}/shield/event-logs/201/01-01-2026/`, {
      headers: { AccessKey: KEY },
    });
    expect(await echoed.body.text()).toContain(KEY);

    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: KEY, retryBaseDelay: '10ms', retryAttempts: 2 },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      metrics: { listen: '127.0.0.1:0' }, // a free port: runs in parallel never collide on 9469
      database: { path: join(h.dir, 'data', 'edgelog.db') },
      pullZones: [101],
      shieldZones: [201],
      alerts: {
        hooks: { ops: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: HOOK_SECRET } },
        rules: [{ name: 'flat', type: 'flatline', source: 'origin', hooks: ['ops'] }],
      },
      worker: { jobAttempts: 1, shutdownTimeout: '2s' },
      log: { level: 'debug' },
    });
    const cli = (args: string[]) => runCli(['--config', config, ...args], { cwd: h.dir });
    const outputs = [
      await cli(['sync', '--date', addDays(TODAY, -1), '--source', 'origin', 'shield', 'guardian']),
      await cli(['status', '--json']),
      await cli(['status']),
      await cli(['api', 'event-logs', '201', TODAY]),
      await cli(['api', 'origin-errors', '101', TODAY]),
    ];
    expect(outputs[0]!.code).toBe(1); // every day failed: refused
    expect(outputs[0]!.stdout).toMatch(/AccessKey \[REDACTED\]|\[REDACTED\]/);

    // A running worker too: its failed jobs keep their reasons in Redis.
    const run = startCli(['--config', config, 'run'], { cwd: h.dir });
    await sleep(3_000);
    run.child.kill('SIGINT');
    const ran = await run.done;
    outputs.push(ran);

    const text = [
      ...outputs.flatMap((o) => [o.stdout, o.stderr]),
      filesText(h.dir),
      await redisText(h.prefix),
    ].join('\n');
    expect(text.length).toBeGreaterThan(1_000);
    expect(text).toContain('[REDACTED]'); // the echo reached every sink, and was scrubbed there
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
    expect(text).not.toContain(HOOK_SECRET);
  });

  it('credentials in an API URL are not printed', async () => {
    h = await harness({ entriesPerDay: 10 });
    const withCreds = h.urls.baseUrl.replace('http://', 'http://alice:url-pass-7744@');
    const config = writeConfig(h.dir, {
      api: { ...h.urls, baseUrl: withCreds, accessKey: 'wrong-key-1234', retryAttempts: 1 },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: join(h.dir, 'e.db') },
      shieldZones: [201],
      log: { level: 'debug' },
    });
    const out = await runCli(['--config', config, 'api', 'event-logs', '201', TODAY], { cwd: h.dir });
    expect(out.code).toBe(1);
    expect(`${out.stdout}${out.stderr}`).not.toContain('url-pass-7744');
  });
});
