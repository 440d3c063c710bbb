// `edgelog sync` on a terminal, as a person sees it: the built CLI runs under a pseudo-terminal
// (util-linux `script`), so stderr is a TTY. It shows its summary and warnings only, as short lines; with
// --log-level info the info lines too. Its Redis is one of this test's own, set to allkeys-lru so that
// there is a warning to see (the run's shared Redis is left alone).
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/redis/connection.js';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { addDays } from '../../src/time/utc-day.js';
import { BIN, writeConfig } from '../support/cli.js';
import { harness, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
let redis: EmbeddedRedis;
let config: string;

beforeAll(async () => {
  h = await harness({ entriesPerDay: 200, pageSize: 100 });
  redis = await startRedisServer({ dir: h.dir });
  const admin = new Redis(redisOptions(redis.target));
  await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
  admin.disconnect();
  config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redis.display, prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    shieldZones: [201],
  });
});

afterAll(async () => {
  await redis?.stop();
  await h?.close();
});

/** Runs the CLI with a terminal on stdin, stdout and stderr; returns what the terminal showed. */
function onTerminal(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; screen: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: h.dir,
    env: { ...process.env, ...env, NO_COLOR: env.NO_COLOR ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, screen: screen.replace(/\r/g, '') })),
  );
}

const sync = () => ['--config', config, 'sync', '--source', 'shield', '--date', addDays(TODAY, -1)];

describe('edgelog sync on a terminal', () => {
  it('shows its progress on one redrawn line, and none with --no-progress', async () => {
    const slow = await harness({ entriesPerDay: 3_000, pageSize: 200, latencyMs: 120 });
    try {
      const file = writeConfig(
        slow.dir,
        {
          api: { ...slow.urls, accessKey: slow.sim.accessKey },
          redis: { url: redis.display, prefix: slow.prefix, embedded: false },
          database: { path: slow.dbPath },
          shieldZones: [201],
        },
        'slow.json',
      );
      const args = ['--config', file, 'sync', '--source', 'shield', '--date', addDays(TODAY, -1)];
      const shown = await onTerminal(args, { NO_COLOR: '1' });
      expect(shown.code).toBe(0);
      expect(shown.screen).toMatch(/zone-days 0\/1 · \d+ pages? · [\d,]+ entr(y|ies)/);
      expect(shown.screen).not.toContain('\x1b[');
      const quiet = await onTerminal([...args, '--no-progress'], { NO_COLOR: '1' });
      expect(quiet.code).toBe(0);
      expect(quiet.screen).not.toContain('zone-days');
    } finally {
      await slow.close();
    }
  });

  it('shows its summary and the warnings, as short lines, without colour under NO_COLOR', async () => {
    const { code, screen } = await onTerminal(sync(), { NO_COLOR: '1' });
    expect(code).toBe(0);
    expect(screen).toMatch(/^shield +201 +\d{4}-\d\d-\d\d +complete/m);
    expect(screen).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}Redis at redis:\/\/127\.0\.0\.1:\d+ has maxmemory-policy allkeys-lru; .*CONFIG SET maxmemory-policy noeviction.* maxmemoryPolicy=allkeys-lru$/m,
    );
    expect(screen).not.toContain(' INFO ');
    expect(screen).not.toContain('{"level"');
    expect(screen).not.toContain('\x1b[');
  });

  it('--log-level info shows the info lines too, coloured', async () => {
    const { code, screen } = await onTerminal(['--log-level', 'info', ...sync()]);
    expect(code).toBe(0);
    expect(screen).toContain('\x1b[32mINFO \x1b[0m ');
    // eslint-disable-next-line no-control-regex
    const plain = screen.replace(/\x1b\[[\d;]*m/g, '');
    expect(plain).toMatch(/^\d\d:\d\d:\d\d INFO {2}day fetched component=ingest source=shield zone=201 /m);
    expect(screen).not.toContain('{"level"');
  });
});
