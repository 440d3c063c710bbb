import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

// Every folder a test makes is removed after it.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-config-'));
  dirs.push(dir);
  return dir;
}

describe('configuration', () => {
  it('fills every default and normalises zones', () => {
    const c = parseConfig({ pullZones: [12345, { id: 7, name: 'cdn-main' }] });
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
    expect(message).toContain('api.retryAttempts: must be at least 1 (got 0), e.g. 6');
    expect(message).toContain('api: Unrecognized key: "bogus"');
    expect(message).toContain('redis.url: expected a redis:// or rediss:// URL');
    expect(message).toContain('schedule.refreshEvery: expected a duration');
  });

  it('reads the file named by --config, then applies environment overrides', () => {
    const dir = tempDir();
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
    expect(c.redisUrlFrom).toBe('REDIS_URL');
  });

  it('knows whether the Redis URL was configured, and where (only an unconfigured one may be embedded)', () => {
    const dir = tempDir();
    expect(loadConfig({ cwd: dir, env: {} }).redisUrlFrom).toBeNull();
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ redis: { url: 'redis://10.0.0.1:6380' } }));
    expect(loadConfig({ path: 'c.json', cwd: dir, env: {} }).redisUrlFrom).toBe(
      `redis.url in ${join(dir, 'c.json')}`,
    );
    expect(parseConfig({}).redisUrlFrom).toBeNull();
    expect(parseConfig({ redis: { url: 'redis://10.0.0.1:6380' } }).redisUrlFrom).toBe('redis.url');
  });

  it('uses defaults when there is no file, and fails clearly on a missing or broken explicit one', () => {
    const dir = tempDir();
    expect(loadConfig({ cwd: dir, env: {} }).origin).toBe('defaults');
    expect(() => loadConfig({ path: 'missing.json', cwd: dir, env: {} })).toThrow(
      /Cannot read the configuration file .*missing.json/,
    );
    writeFileSync(join(dir, 'bad.json'), '{ "api": ');
    expect(() => loadConfig({ path: 'bad.json', cwd: dir, env: {} })).toThrow(/is not valid JSON/);
  });

  it.each([
    ['null', 'null'],
    ['[]', 'an array'],
    ['42', 'a number'],
    ['"edgelog"', 'a string'],
    ['true', 'a boolean'],
  ])('refuses a file holding %s instead of an object', (text, kind) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.json'), text);
    expect(() => loadConfig({ path: 'c.json', cwd: dir, env: {} })).toThrow(
      `The configuration file ${join(dir, 'c.json')} must hold a JSON object ({ "pullZones": [12345], … }), not ${kind}`,
    );
    // The default file too: found in the working directory, it is not skipped for holding the wrong thing.
    writeFileSync(join(dir, 'edgelog.config.json'), text);
    expect(() => loadConfig({ cwd: dir, env: {} })).toThrow(/must hold a JSON object/);
  });

  it("resolves a relative database.path from a file against the file's directory", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'etc'));
    writeFileSync(join(dir, 'etc', 'c.json'), JSON.stringify({ database: { path: 'archive/a.db' } }));
    writeFileSync(join(dir, 'etc', 'abs.json'), JSON.stringify({ database: { path: '/var/lib/a.db' } }));
    writeFileSync(join(dir, 'etc', 'none.json'), JSON.stringify({ pullZones: [1] }));
    const load = (path: string, env: NodeJS.ProcessEnv = {}, overrides = {}) =>
      loadConfig({ path, cwd: dir, env, overrides }).database.path;
    expect(load('etc/c.json')).toBe(join(dir, 'etc', 'archive', 'a.db'));
    expect(load(join(dir, 'etc', 'c.json'))).toBe(join(dir, 'etc', 'archive', 'a.db'));
    expect(load('etc/abs.json')).toBe('/var/lib/a.db');
    // The default, EDGELOG_DB and overrides (the demo's --database) stay relative to the working directory.
    expect(load('etc/none.json')).toBe('data/edgelog.db');
    expect(load('etc/c.json', { EDGELOG_DB: 'env.db' })).toBe('env.db');
    expect(load('etc/c.json', {}, { database: { path: 'data/demo.db' } })).toBe('data/demo.db');
  });

  it('takes the environment over the file, and overrides (the demo) over both', () => {
    const dir = tempDir();
    const url = 'postgres://edgelog@db.example:5432/edgelog';
    const readerUrl = 'postgres://reader@db.example:5432/edgelog';
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({ database: { url, readerUrl }, api: { accessKey: 'file-key' } }),
    );
    const load = (env: NodeJS.ProcessEnv, overrides = {}) =>
      loadConfig({ path: 'c.json', cwd: dir, env, overrides });
    // EDGELOG_DB names a SQLite archive: the file's URL is set aside.
    expect(load({ EDGELOG_DB: 'mine.db' }).database).toMatchObject({
      path: 'mine.db',
      url: null,
      readerUrl: null,
    });
    // …but not a URL the environment gives too.
    const pgUrl = 'postgres://edgelog@other:5432/edgelog';
    expect(load({ EDGELOG_DB: 'mine.db', EDGELOG_DATABASE_URL: pgUrl }).database.url).toBe(pgUrl);
    // The demo's simulator key and archive win over the operator's environment.
    const demo = load(
      { EDGELOG_ACCESS_KEY: 'real-key', EDGELOG_DATABASE_URL: pgUrl },
      { api: { accessKey: 'sim-key' }, database: { path: 'data/demo.db', url: null } },
    );
    expect(demo.api.accessKey).toBe('sim-key');
    expect(demo.database).toMatchObject({ path: 'data/demo.db', url: null });
  });
});
