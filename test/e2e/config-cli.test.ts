// Bad input refused at start, as a user meets it: a missing access key, a zone that is not configured,
// a file that is not an object, and a relative database.path read beside its file.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, writeConfig, type CliResult } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
/** A configuration with zones and the simulator's URLs but no access key. */
let keyless: string;
/** The same zones, with a key, on an archive of its own that nothing writes. */
let statusOnly: string;
// None of the caller's settings may leak into the child.
const env = { EDGELOG_ACCESS_KEY: '', EDGELOG_CONFIG: '', EDGELOG_DB: '', REDIS_URL: '' };

beforeAll(async () => {
  h = await harness({ entriesPerDay: 50, pageSize: 50 });
  keyless = writeConfig(
    h.dir,
    {
      api: h.urls,
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      pullZones: [101],
      shieldZones: [201],
      log: { level: 'silent' },
    },
    'keyless.json',
  );
  statusOnly = writeConfig(
    h.dir,
    {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: join(h.dir, 'status.db') },
      pullZones: [101],
      shieldZones: [201],
    },
    'status.json',
  );
});
afterAll(async () => h?.close());

/** Runs the CLI; a command that does not end within `ms` is killed and fails the test. */
async function cli(args: string[], cwd = h.dir, ms = 20_000): Promise<CliResult> {
  const { child, done } = startCli(args, { cwd, env });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  try {
    const r = await done;
    expect(r.signal, `edgelog ${args.join(' ')} did not end within ${ms} ms`).toBeNull();
    return r;
  } finally {
    clearTimeout(timer);
  }
}

describe('a configuration without an access key', () => {
  it.each([
    [['sync']],
    [['sync', '--source', 'guardian']],
    [['run']],
    [['api', 'origin-errors', '101', TODAY]],
    [['api', 'event-logs', '201', TODAY]],
    [['api', 'edge-script', '5']],
  ])('%j fails at start, naming api.accessKey and EDGELOG_ACCESS_KEY, before any request', async (args) => {
    const before = h.sim.stats.requests;
    const r = await cli(['--config', keyless, ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `edgelog: no API access key configured: set api.accessKey in ${keyless}, or the EDGELOG_ACCESS_KEY environment variable\n`,
    );
    expect(h.sim.stats.requests).toBe(before);
  });

  it('is fine for video-play-data, which sends no key', async () => {
    const r = await cli(['--config', keyless, 'api', 'video-play-data', '7', 'abc-123']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('edgelog status --zone', () => {
  it('says that a zone is not configured, and lists the configured ones', async () => {
    const r = await cli(['--config', statusOnly, 'status', '--zone', '999']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'edgelog: zone 999 is not configured (pullZones: 101; shieldZones: 201): check the zone id\n',
    );
    const shield = await cli(['--config', statusOnly, 'status', '--source', 'shield', '--zone', '101']);
    expect(shield.stderr).toBe(
      'edgelog: zone 101 is not configured for shield (shieldZones: 201): check the zone id\n',
    );
  });

  it('keeps "nothing fetched yet" for a configured zone without ledger rows', async () => {
    const r = await cli(['--config', statusOnly, 'status', '--zone', '101']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ledger: empty (nothing fetched yet;');
  });
});

describe('the configuration file', () => {
  it('is refused when it holds no object, and nothing is created', async () => {
    const dir = join(h.dir, 'null-config');
    mkdirSync(dir);
    writeConfig(dir, null as never);
    const r = await cli(['status'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('must hold a JSON object');
    expect(r.stderr).toContain('not null');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('places a relative database.path beside the file, from any working directory', async () => {
    const conf = join(h.dir, 'conf');
    const elsewhere = join(h.dir, 'elsewhere');
    mkdirSync(conf);
    mkdirSync(elsewhere);
    const file = writeConfig(conf, {
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: 'archive/edgelog.db' },
      pullZones: [101],
    });
    const migrate = await cli(['--config', file, 'migrate'], elsewhere);
    expect(migrate.stderr).toBe('');
    expect(migrate.stdout).toContain(`database ${join(conf, 'archive', 'edgelog.db')}`);
    expect(existsSync(join(conf, 'archive', 'edgelog.db'))).toBe(true);
    expect(existsSync(join(elsewhere, 'archive'))).toBe(false);
    const query = await cli(
      ['--config', file, 'query', '--format', 'json', 'SELECT count(*) AS n FROM ingest_ledger'],
      h.dir,
    );
    expect(query.stderr).toBe('');
    expect(JSON.parse(query.stdout)).toEqual([{ n: 0 }]);
    const status = await cli(['--config', file, 'status'], h.dir);
    expect(status.stderr).toBe('');
    expect(status.stdout).toContain('ledger: empty');
  });
});
