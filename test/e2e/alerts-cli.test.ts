// `edgelog alerts list | check` as an on-call engineer reads them: durations as durations.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/index.js';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { onTerminal } from '../support/terminal.js';

let h: Harness;
let config: string;
beforeAll(async () => {
  h = await harness({ entriesPerDay: 10 });
  config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    pullZones: [101],
    alerts: {
      hooks: {
        ops: { type: 'webhook', url: 'http://edgelog:hook-pass-1@127.0.0.1:9/hook', secret: 'sign-secret-1' },
      },
      rules: [
        { name: 'origin-stale', type: 'flatline', source: 'origin', maxAge: '90m' },
        { name: 'origin-5xx', type: 'spike', source: 'origin', filter: { statusCodeMin: 500 }, window: '1h' },
      ],
    },
  });
});
afterAll(async () => h?.close());

const alerts = (...args: string[]) => runCli(['--config', config, 'alerts', ...args], { cwd: h.dir });
/** The rule's row of zone 101 in a table. */
const row = (stdout: string, rule: string) =>
  stdout.split('\n').find((l) => new RegExp(`^${rule} +101 `).test(l))!;

describe('edgelog alerts', () => {
  it('check and list show a flatline rule’s age and bound as durations, not milliseconds', async () => {
    const check = await alerts('check');
    expect(check.code).toBe(0);
    // rule, zone, state, value (the age), threshold (maxAge), …
    expect(row(check.stdout, 'origin-stale')).toMatch(/^origin-stale +101 +\w+ +\d+s +90m +no successful/);
    const list = await alerts('list');
    expect(list.code).toBe(0);
    const listed = row(list.stdout, 'origin-stale');
    expect(listed).toMatch(/ \d+s +90m /);
    expect(listed).not.toContain('5400000');
  });

  it('silence, silences, unsilence; list, check and status show the silenced alert', async () => {
    const made = await alerts(
      'silence',
      'origin-stale',
      '--zone',
      '101',
      '--for',
      '2h',
      '--comment',
      'deploy \u001b[31m',
    );
    expect(made.code).toBe(0);
    const id = /^silence ([0-9a-f]{12}): alertname="origin-stale", zone="101" until \S+Z \(2h\)$/m.exec(
      made.stdout,
    )?.[1];
    expect(id, made.stdout).toBeDefined();
    expect(made.stdout).not.toContain('\u001b');

    const listed = await alerts('silences');
    expect(listed.stdout).toMatch(new RegExp(`^${id} +alertname="origin-stale", zone="101" +active `, 'm'));
    expect(listed.stdout).toContain('deploy');
    expect(listed.stdout).not.toContain('\u001b');

    const check = await alerts('check');
    expect(row(check.stdout, 'origin-stale')).toMatch(/ silenced +/);
    expect(row(check.stdout, 'origin-5xx')).not.toMatch(/ silenced /);
    const list = await alerts('list');
    expect(row(list.stdout, 'origin-stale')).toContain(id);
    expect(row(list.stdout, 'origin-5xx')).not.toContain(id);
    const status = await runCli(['--config', config, 'status'], { cwd: h.dir });
    expect(status.stdout).toMatch(/^alerts: \d+ firing, \d+ pending, 1 silenced; 1 silence in force/m);

    expect((await alerts('unsilence', id!)).stdout).toBe(`silence ${id} ended\n`);
    expect((await alerts('unsilence', id!)).stdout).toBe(`silence ${id} had ended already\n`);
    expect((await alerts('silences')).stdout).toBe('no silences in force\n');
    expect((await alerts('silences', '--all')).stdout).toMatch(new RegExp(`^${id} .* expired `, 'm'));
    expect(row((await alerts('list')).stdout, 'origin-stale')).not.toContain(id);
  });

  it('refuses an unknown rule, a bad matcher, an unknown silence', async () => {
    const unknown = await alerts('silence', 'nope');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no rule "nope" in alerts.rules (configured: origin-stale, origin-5xx)');
    const bad = await alerts('silence', 'origin-stale', '--match', 'zone=~"("');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('not a regular expression');
    const gone = await alerts('unsilence', 'abcdef');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('no silence abcdef');
  });

  it("silence a sql rule's rows by their own labels; check, list and status show them, escaped", async () => {
    // Its own configuration on the same archive: the other tests' rules and counts stay as they were.
    const sqlConfig = writeConfig(
      h.dir,
      {
        ...(JSON.parse(readFileSync(config, 'utf8')) as ConfigInput),
        alerts: {
          hooks: {},
          rules: [
            {
              name: 'odd-rows',
              type: 'sql',
              sql: "SELECT 101 AS zone, 'evil' || chr(27) || '[31m' AS kind UNION ALL SELECT 102, 'calm'",
              hooks: [],
            },
            { name: 'origin-stale', type: 'flatline', source: 'origin', maxAge: '90m' },
            { name: 'new-codes', type: 'new-term', source: 'origin', field: 'error_code', window: '1h' },
          ],
        },
      },
      'sql.config.json',
    );
    const run = (...args: string[]) => runCli(['--config', sqlConfig, ...args], { cwd: h.dir });
    const refused = await run('alerts', 'silence', 'origin-stale', '--match', 'kind=x');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('unknown label "kind"');
    const made = await run('alerts', 'silence', 'odd-rows', '--match', 'kind=~"evil.*"', '--for', '1h');
    expect(made.code, made.stderr).toBe(0);
    const id = /^silence ([0-9a-f]{12}): alertname="odd-rows", kind=~"evil\.\*"/m.exec(made.stdout)?.[1];
    expect(id, made.stdout).toBeDefined();

    // A table's row of the rule (the rules' own lines read `odd-rows (sql): …`).
    const line = (stdout: string, what: string) =>
      stdout.split('\n').find((l) => /^odd-rows {2}/.test(l) && l.includes(what)) ?? '';
    const check = await run('alerts', 'check');
    expect(check.code, check.stderr).toBe(0);
    expect(line(check.stdout, 'evil')).toMatch(
      /^odd-rows +101 +firing .* silenced +zone=101, kind="evil\\x1b\[31m"/,
    );
    expect(line(check.stdout, 'calm')).toMatch(/^odd-rows +102 +firing /);
    expect(line(check.stdout, 'calm')).not.toContain('silenced');
    const listJson = async () => (await run('alerts', 'list', '--json')).stdout;
    const before = await listJson();
    // --dry-run judges the sql rule too, the silence with it, and saves nothing.
    const dry = await run('alerts', 'check', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(line(dry.stdout, 'evil')).toMatch(
      /^odd-rows +101 +firing .* silenced +zone=101, kind="evil\\x1b\[31m"/,
    );
    expect(line(dry.stdout, 'calm')).toMatch(/^odd-rows +102 +firing /);
    expect(await listJson()).toBe(before);
    expect(dry.stdout).toMatch(/^new-codes +101 /m); // a new-term rule is judged too
    const list = await run('alerts', 'list');
    expect(line(list.stdout, 'evil')).toContain(id);
    expect(line(list.stdout, 'calm')).not.toContain(id);
    for (const out of [check.stdout, list.stdout]) expect(out).not.toContain('\u001b');
    const json = JSON.parse(before) as {
      series: Array<{ labels: string; silenced_by: string[] }>;
    };
    // By series key: kind first.
    expect(json.series.map((s) => [(JSON.parse(s.labels) as { zone: string }).zone, s.silenced_by])).toEqual([
      ['102', []],
      ['101', [id]],
    ]);
    const status = await run('status');
    expect(status.stdout).toMatch(/^alerts: 2 firing, 0 pending, 1 silenced; 1 silence in force/m);
    expect((await run('alerts', 'unsilence', id!)).code).toBe(0);
  });

  it('test --dry-run prints the request a notice would make, credentials redacted; check --dry-run sends nothing', async () => {
    const test = await alerts('test', 'ops', '--dry-run');
    expect(test.code).toBe(0);
    const lines = test.stdout.split('\n');
    expect(lines[0]).toBe('POST http://127.0.0.1:9/hook');
    expect(lines).toContain('authorization: Basic [REDACTED]');
    expect(test.stdout).toMatch(/^idempotency-key: test-\d+$/m);
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ version: '4', receiver: 'ops' });
    for (const secret of [
      'hook-pass-1',
      'sign-secret-1',
      Buffer.from('edgelog:hook-pass-1').toString('base64'),
    ])
      expect(test.stdout + test.stderr).not.toContain(secret);

    const check = await alerts('check', '--dry-run');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^dry run: nothing saved, nothing sent; 0 requests would be made$/m);
  });

  it('on a terminal: list says a filter in words; test --dry-run shows the body indented, as JSON still', async () => {
    const terminal = (...args: string[]) =>
      onTerminal(['--config', config, 'alerts', ...args], { cwd: h.dir, env: { NO_COLOR: '1' } });
    const list = await terminal('list');
    expect(list.code).toBe(0);
    expect(list.screen).toMatch(/^origin-5xx \(spike\): origin status ≥ 500, window 1h /m);
    expect(list.screen).not.toContain('statusCodeMin');
    const test = await terminal('test', 'ops', '--dry-run');
    expect(test.code).toBe(0);
    expect(test.screen).toMatch(/^ {2}"version": "4",$/m);
    const body = test.screen.slice(test.screen.indexOf('\n\n{'));
    expect(JSON.parse(body)).toMatchObject({ version: '4', receiver: 'ops' });
    expect(test.screen).not.toContain('hook-pass-1');
  });
});
