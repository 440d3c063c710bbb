// `edgelog init` as a newcomer runs it after the demo: a commented configuration with their zones, kept
// private, never holding the key, refusing to overwrite; then the commands it prints work with that file
// as written (against the simulator on a fixed address). Without any file, commands say where they looked.
import { mkdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { runCli } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

describe('edgelog init', () => {
  it('writes a commented configuration, 0600, without the key, and says what to run next', async () => {
    h = await harness();
    const r = await runCli(['init', '--pull-zone', '12345', '--shield-zone', '678,679'], {
      cwd: h.dir,
      env: { EDGELOG_ACCESS_KEY: 'secret-key-never-written' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const path = join(h.dir, 'edgelog.config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('secret-key-never-written');
    expect(text).toContain('"//": "the SQLite archive, relative to this file');
    // The loader reads it as every command will: comments dropped, zones and paths kept.
    const config = loadConfig({ cwd: h.dir, env: {} });
    expect(config.pullZones).toEqual([{ id: 12345 }]);
    expect(config.shieldZones).toEqual([{ id: 678 }, { id: 679 }]);
    expect(config.database.path).toBe(join(h.dir, 'data', 'edgelog.db'));
    expect(config.history.path).toBe(join(h.dir, 'data', 'history'));
    expect(r.stdout).toMatch(
      /^wrote edgelog\.config\.json \(mode 0600\): pull zones 12345; Shield zones 678, 679\n/,
    );
    expect(r.stdout).toMatch(/\n {2}edgelog sync --from \d{4}-\d\d-\d\d --to \d{4}-\d\d-\d\d /);
    // The key was in the environment: no `export` line.
    expect(r.stdout).not.toContain('export EDGELOG_ACCESS_KEY');
  });

  it('keeps an existing file unless --force, which makes it 0600 again', async () => {
    h = await harness();
    const path = join(h.dir, 'edgelog.config.json');
    writeFileSync(path, '{ "pullZones": [1] }\n');
    chmodSync(path, 0o644);
    const kept = await runCli(['init', '--pull-zone', '2'], { cwd: h.dir });
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('edgelog.config.json exists: edit it, or pass --force to overwrite it');
    expect(readFileSync(path, 'utf8')).toBe('{ "pullZones": [1] }\n');
    const forced = await runCli(['init', '--pull-zone', '2', '--force'], { cwd: h.dir });
    expect(forced.code).toBe(0);
    expect(loadConfig({ cwd: h.dir, env: {} }).pullZones).toEqual([{ id: 2 }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('asks for zones only on a terminal: off one, without zones, nothing is written', async () => {
    h = await harness();
    const r = await runCli(['init'], { cwd: h.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('which zones? pass --pull-zone <id> and/or --shield-zone <id>');
    expect(() => statSync(join(h.dir, 'edgelog.config.json'))).toThrow();
  });

  it('without a file, sync and the key check say which file they looked for', async () => {
    h = await harness();
    const r = await runCli(['sync'], { cwd: h.dir, env: { npm_command: 'exec' } });
    expect(r.code).toBe(1);
    // Before: "no zones to sync: add pullZones / shieldZones to the configuration".
    expect(r.stderr).toContain(
      `no zones to sync: no configuration file found (looked for ${join(h.dir, 'edgelog.config.json')}; neither --config nor EDGELOG_CONFIG was given): \`npx edgelog init --pull-zone <id> --shield-zone <id>\` writes one`,
    );
  });

  it("the commands it prints work with the file as written, against the simulator's fixed address", async () => {
    h = await harness({ now: Date.now, entriesPerDay: 200 });
    const address = new URL(h.urls.baseUrl).origin;
    const dir = join(h.dir, 'mine');
    mkdirSync(dir);
    const init = await runCli(
      ['init', '--simulator', address, '--pull-zone', '101', '--shield-zone', '201'],
      {
        cwd: dir,
        env: { npm_command: 'exec' },
      },
    );
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("  export EDGELOG_ACCESS_KEY=sim-access-key   # the simulator's key\n");
    const sync = /\n {2}npx edgelog (sync --from \S+ --to \S+)/.exec(init.stdout)![1]!.split(' ');
    // The one change a test makes: its own Redis prefix, so that its keys are its own to delete.
    const path = join(dir, 'edgelog.config.json');
    const file = JSON.parse(readFileSync(path, 'utf8')) as { redis: Record<string, unknown> };
    file.redis.prefix = h.prefix;
    writeFileSync(path, JSON.stringify(file));
    const env = { EDGELOG_ACCESS_KEY: h.sim.accessKey, REDIS_URL: redisUrl() };
    const synced = await runCli([...sync, '--no-progress'], { cwd: dir, env });
    expect(synced.stderr).not.toMatch(/error/i);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^origin +101 /m);
    expect(synced.stdout).toMatch(/^shield +201 /m);
    const status = await runCli(['status'], { cwd: dir, env });
    expect(status.code).toBe(0);
    expect(status.stdout).not.toContain('missing:');
    const query = await runCli(
      ['query', 'SELECT count(*) AS n FROM shield_event_logs', '--format', 'ndjson'],
      {
        cwd: dir,
        env,
      },
    );
    expect(query.code).toBe(0);
    expect((JSON.parse(query.stdout) as { n: number }).n).toBeGreaterThan(0);
  });
});
