// `edgelog status` as an on-call engineer reads it, and the conventions every command shares.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

describe('edgelog status', () => {
  it('per zone: freshness, the oldest day not complete and when the API forgets it, the last error', async () => {
    // The real clock: status judges days against now.
    h = await harness({
      entriesPerDay: 1_200,
      pageSize: 300,
      now: Date.now,
      faults: [{ kind: 'loop', afterPage: 2 }],
    });
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = addDays(today as Parameters<typeof addDays>[0], -1);
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      shieldZones: [201],
      log: { level: 'warn' },
    });
    const synced = await runCli(
      ['--config', config, 'sync', '--date', yesterday, '--source', 'shield', '--no-progress'],
      {
        cwd: h.dir,
      },
    );
    expect(synced.code).toBe(1); // the day is incomplete: the API looped

    const status = await runCli(['--config', config, 'status'], { cwd: h.dir });
    expect(status.code).toBe(0);
    const zoneLine = status.stdout.split('\n').find((l) => /^shield +201 /.test(l))!;
    expect(zoneLine).toMatch(
      new RegExp(
        `${yesterday} \\(incomplete\\) +\\d+h\\d\\dm +600 +0 +${yesterday}: continuation token repeats`,
      ),
    );

    const json = JSON.parse(
      (await runCli(['--config', config, 'status', '--json', '--zone', '201'], { cwd: h.dir })).stdout,
    ) as { zones: Array<{ oldestOpen: { day: string }; forgottenAt: number }> };
    expect(json.zones[0]!.oldestOpen.day).toBe(yesterday);
    expect(json.zones[0]!.forgottenAt).toBe(Date.parse(`${addDays(yesterday, 3)}T00:00:00Z`));

    // The lookback (2 days) and today: only yesterday was ever fetched.
    const before = addDays(yesterday, -1);
    expect(status.stdout).toContain(
      'missing: 2 zone-days of the lookback never fetched (edgelog status --missing)',
    );
    const missing = await runCli(['--config', config, 'status', '--missing'], { cwd: h.dir });
    expect(missing.code).toBe(0);
    // How long the API still serves each day (`span`: 58m, 12h05m, 2d00h: it depends on the hour).
    const span = '(\\d+m|\\d+h\\d\\dm|\\d+d\\d\\dh)';
    expect(missing.stdout).toMatch(new RegExp(`^shield +201 +${before} +${span}$`, 'm'));
    expect(missing.stdout).toMatch(new RegExp(`^shield +201 +${today} +${span}$`, 'm'));
    expect(missing.stdout).not.toContain(yesterday + ' ');
    expect(missing.stdout).toContain(`to fetch them now:\n  edgelog sync --from ${before} --to ${today}\n`);
    // Under npx (npm sets npm_command=exec), the hints say so.
    const npx = await runCli(['--config', config, 'status', '--missing'], {
      cwd: h.dir,
      env: { npm_command: 'exec' },
    });
    expect(npx.stdout).toContain(`  npx edgelog sync --from ${before} --to ${today}\n`);
    expect(json).toHaveProperty('missing');
  });

  // It used to create the archive (and its directory) as a side effect.
  it('reads only: no archive yet is said, and none is created', async () => {
    h = await harness();
    const path = join(h.dir, 'new', 'none.db');
    const config = writeConfig(h.dir, { database: { path }, redis: { url: redisUrl(), embedded: false } });
    const r = await runCli(['--config', config, 'status'], { cwd: h.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^archive: none at .*none\.db yet/);
    expect(existsSync(join(h.dir, 'new'))).toBe(false);
  });
});

describe('one convention for every command', () => {
  it('--version, --json for --format json, --zone lists, and --json against --format refused', async () => {
    h = await harness();
    const cwd = h.dir;
    expect((await runCli(['--version'], { cwd })).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const config = writeConfig(h.dir, {
      database: { path: h.dbPath },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      pullZones: [101, 102],
    });
    const migrated = await runCli(['--config', config, 'migrate', '--json'], { cwd });
    expect(JSON.parse(migrated.stdout)).toHaveProperty('migrations');
    expect((await runCli(['--config', config, 'migrate', '--format', 'json'], { cwd })).stdout).toBe(
      migrated.stdout.replace(/"applied"/g, '"already-applied"'),
    );
    const status = await runCli(
      ['--config', config, 'status', '--zone', '101,102', '--source', 'origin', '--json'],
      { cwd },
    );
    expect(
      (JSON.parse(status.stdout) as { zones: Array<{ zone: number }> }).zones.map((z) => z.zone),
    ).toEqual([101, 102]);
    const q = await runCli(['--config', config, 'query', 'SELECT 1 AS one', '--json'], { cwd });
    expect(JSON.parse(q.stdout)).toEqual([{ one: 1 }]);
    const both = await runCli(['--config', config, 'status', '--json', '--format', 'table'], { cwd });
    expect(both.code).toBe(0); // table is the default: --json wins over it
    const contradicted = await runCli(
      ['--config', config, 'query', 'SELECT 1', '--json', '--format', 'csv'],
      { cwd },
    );
    expect(contradicted.stderr).toMatch(/--json and --format csv contradict each other/);
  });
});
