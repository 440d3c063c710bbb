// Hostile log content stays inert on a person's terminal: the simulator's hostileText knob puts terminal
// control sequences (CSI, OSC, C1, a bidirectional override) in every string of every entry and in every
// error message; each command that shows them runs under a pseudo-terminal against both stores, and what
// the terminal receives holds none of those characters raw, only their escaped form.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { safeText } from '../../src/format/terminal-text.js';
import { HOSTILE_TEXT } from '../../src/simulator/index.js';
import { addDays } from '../../src/time/utc-day.js';
import { writeConfig } from '../support/cli.js';
import { redisUrl, TODAY, type Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { onTerminal, RAW_CONTROL, type TerminalRun } from '../support/terminal.js';

const DAY = addDays(TODAY, -1);
/** The hostile text as a person must see it: escaped (the first three sequences: cells may be cut). */
const SHOWN = safeText(HOSTILE_TEXT).slice(0, safeText('\x1b[2J\x1b[H\x1b]0;pwned').length);

describeStores('hostile text on a terminal', (store) => {
  let h: Harness;
  let config: string;
  const run = (...args: string[]): Promise<TerminalRun> =>
    onTerminal(['--config', config, ...args], { cwd: h.dir, env: { NO_COLOR: '1' } });
  /** Nothing raw reached the terminal; and the escaped form did, when the output shows archived text. */
  const inert = (r: TerminalRun, shows = true) => {
    const raw = r.screen.match(RAW_CONTROL);
    expect(
      raw && {
        char: raw[0].codePointAt(0)!.toString(16),
        near: r.screen.slice(raw.index! - 60, raw.index! + 20),
      },
    ).toBe(null);
    if (shows) expect(r.screen).toContain(SHOWN);
  };

  beforeAll(async () => {
    h = await storeHarness(store, { hostileText: true, entriesPerDay: 40, pageSize: 15 });
    config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey, retryAttempts: 1 },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: h.databaseUrl ? { path: h.dbPath, url: h.databaseUrl } : { path: h.dbPath },
      // 109 and 209 are unknown to the API: their days fail with its (hostile) error messages.
      pullZones: [101, 109],
      shieldZones: [201, 209],
      alerts: {
        rules: [
          // A rule filtering on a rule id copied from the archive, hostile text and all.
          {
            name: 'waf-spike',
            type: 'spike',
            source: 'shield',
            filter: { ruleId: `${HOSTILE_TEXT}942100` },
            window: '1h',
          },
          { name: 'origin-stale', type: 'flatline', source: 'origin', maxAge: '1h' },
        ],
      },
    });
    const synced = await run(
      'sync',
      '--date',
      DAY,
      '--source',
      'origin',
      'shield',
      'guardian',
      '--no-progress',
    );
    // The unknown zones fail; the known ones are archived.
    expect(synced.code).toBe(1);
    expect(synced.screen).toMatch(/^shield +201 +\S+ +complete/m);
    inert(synced, false);
    expect(synced.screen).toContain('0;pwned');
  }, 120_000);

  afterAll(async () => h?.close());

  it('status: the last errors', async () => {
    const r = await run('status', '--wide');
    expect(r.code).toBe(0);
    inert(r, false);
    expect(r.screen).toContain('0;pwned');
  });

  it('query: a table, CSV and JSON', async () => {
    const table = await run(
      'query',
      'SELECT log_id, rule_id, country, asn, url, message FROM shield_event_logs LIMIT 5',
    );
    expect(table.code).toBe(0);
    inert(table);
    const csv = await run('query', 'SELECT rule_id, url FROM shield_event_logs LIMIT 5', '--format', 'csv');
    expect(csv.code).toBe(0);
    inert(csv);
    const json = await run('query', 'SELECT rule_id, url FROM shield_event_logs LIMIT 5', '--format', 'json');
    expect(json.code).toBe(0);
    inert(json, false);
    expect(json.screen).toContain('\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007\\u009b31m\\u202e');
  });

  it('report origin, shield and guardian', async () => {
    for (const kind of ['origin', 'shield']) {
      const r = await run('report', kind, '--from', DAY, '--to', DAY);
      expect([kind, r.code]).toEqual([kind, 0]);
      inert(r);
    }
    const guardian = await run('report', 'guardian', '--from', DAY, '--to', TODAY);
    expect(guardian.code).toBe(0);
    inert(guardian, false);
  });

  it('alerts list and check', async () => {
    const check = await run('alerts', 'check');
    expect(check.code).toBe(0);
    inert(check, false);
    const list = await run('alerts', 'list');
    expect(list.code).toBe(0);
    inert(list, false);
    expect(list.screen).toContain('0;pwned');
  });

  it('api: the JSON an operation prints', async () => {
    const r = await run('api', 'event-logs', '201', DAY);
    expect(r.code).toBe(0);
    inert(r, false);
    expect(r.screen).toContain('\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007\\u009b31m\\u202e');
  });

  it("the CLI's error line", async () => {
    const r = await run('api', 'origin-errors', '109', DAY);
    expect(r.code).toBe(1);
    expect(r.screen).toMatch(/^edgelog: /m);
    inert(r, false);
    expect(r.screen).toContain('0;pwned');
  });
});
