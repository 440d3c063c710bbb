// `edgelog alerts list | check` as an on-call engineer reads them: durations as durations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

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
});
