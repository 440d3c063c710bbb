import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadConfig, parseConfig, parseDuration } from '../../src/config/index.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['1.5h', 5_400_000],
    ['2d', 172_800_000],
    [1234, 1234],
    ['soon', undefined],
    ['10 minutes', undefined],
    [-1, undefined],
  ] as const)('%j → %j', (input, ms) => expect(parseDuration(input)).toBe(ms));
});

describe('configuration', () => {
  it('fills every default and normalises zones', () => {
    const c = parseConfig({ pullZones: [12345, { id: 7, name: 'cdn-main' }, 12345] });
    expect(c.api.baseUrl).toBe('https://api.bunny.net');
    expect(c.api.originLogUrl).toBe('https://cdn-origin-logging.bunny.net');
    expect(c.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'edgelog', embedded: true });
    expect(c.database.path).toBe('data/edgelog.db');
    expect(c.pullZones).toEqual([{ id: 12345 }, { id: 7, name: 'cdn-main' }]);
    expect(c.schedule.refreshEvery).toBe(3_600_000);
    expect(Object.isFrozen(c.api)).toBe(true);
  });

  it('names each bad key and the fix', () => {
    let message = '';
    try {
      parseConfig({
        pullZones: ['x'],
        api: { retryAttempts: 0, bogus: 1 },
        redis: { url: 'http://x' },
        schedule: { refreshEvery: 'soon' },
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('pullZones[0]: expected a zone id (a positive integer)');
    expect(message).toContain('api.retryAttempts: Too small');
    expect(message).toContain('api: Unrecognized key: "bogus"');
    expect(message).toContain('redis.url: expected a redis:// or rediss:// URL');
    expect(message).toContain('schedule.refreshEvery: expected a duration');
  });

  it('reads the file named by --config, then applies environment overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-config-'));
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({ api: { accessKey: 'from-file' }, shieldZones: [678] }),
    );
    const c = loadConfig({
      path: 'c.json',
      cwd: dir,
      env: { EDGELOG_ACCESS_KEY: 'from-env', REDIS_URL: 'redis://10.0.0.1:6380', EDGELOG_DB: '/tmp/x.db' },
    });
    expect(c.api.accessKey).toBe('from-env');
    expect(c.redis.url).toBe('redis://10.0.0.1:6380');
    expect(c.database.path).toBe('/tmp/x.db');
    expect(c.shieldZones).toEqual([{ id: 678 }]);
    expect(c.origin).toBe(join(dir, 'c.json'));
  });

  it('uses defaults when there is no file, and fails clearly on a missing or broken explicit one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-config-'));
    expect(loadConfig({ cwd: dir, env: {} }).origin).toBe('defaults');
    expect(() => loadConfig({ path: 'missing.json', cwd: dir, env: {} })).toThrow(
      /Cannot read the configuration file .*missing.json/,
    );
    writeFileSync(join(dir, 'bad.json'), '{ "api": ');
    expect(() => loadConfig({ path: 'bad.json', cwd: dir, env: {} })).toThrow(/is not valid JSON/);
  });
});
