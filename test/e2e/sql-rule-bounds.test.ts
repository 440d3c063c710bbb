// The reproduction of unbounded rule rows (issue 28, item 7), on each store, as a user runs it: a
// sql rule returning 250 rows with 2 MB labels. `edgelog alerts check` under a 256 MB heap (the systemd
// unit gives the worker 1024 MB; with the labels whole it took 2.1 GB) finishes, its RSS stays bounded,
// and every alert is still sent, its label cut to the bound and the cut said in the notice.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { MAX_LABEL_CHARS } from '../../src/alerts/label-bounds.js';
import { startCli, writeConfig } from '../support/cli.js';
import { redisUrl, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';

const ROWS = 250;
const LABEL = 2_000_000;
const STATEMENTS = {
  SQLite: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) SELECT i AS id, hex(zeroblob(${LABEL / 2})) || i AS big, 1 AS value FROM n`,
  PostgreSQL: `SELECT i AS id, repeat('0', ${LABEL}) || i AS big, 1 AS value FROM generate_series(1, ${ROWS}) AS i`,
};

let h: Harness | undefined;
let ops: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await ops?.close();
});

/** The process's resident set, from /proc (0 once it has gone). */
function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

describeStores('a sql rule of 250 rows with 2 MB labels', (store) => {
  it('alerts check stays bounded and still sends every alert, its label cut and the cut said', async () => {
    ops = await startReceiver();
    h = await storeHarness(store);
    const config = writeConfig(h.dir, {
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath, ...(h.databaseUrl ? { url: h.databaseUrl } : {}) },
      pullZones: [],
      shieldZones: [],
      alerts: {
        hooks: { ops: { type: 'webhook', url: ops.url } },
        rules: [{ name: 'big-labels', type: 'sql', sql: STATEMENTS[store], timeout: '60s', hooks: ['ops'] }],
      },
      log: { level: 'warn' },
    });
    const check = startCli(['--config', config, 'alerts', 'check'], {
      cwd: h.dir,
      env: { NODE_OPTIONS: '--max-old-space-size=256' },
    });
    let peak = 0;
    const pid = check.child.pid!;
    const watch = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
    const result = await check.done;
    clearInterval(watch);
    expect(result.stderr).not.toMatch(/heap out of memory|"level":50/);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`250 rows with a label over ${MAX_LABEL_CHARS} characters: cut`);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(400 * 1024 * 1024);

    for (let i = 0; i < 200 && ops.received.length < ROWS; i++) await sleep(50);
    const alerts = ops.received.flatMap(
      (r) => r.json.alerts as Array<{ labels: Record<string, string>; annotations: Record<string, string> }>,
    );
    expect(alerts).toHaveLength(ROWS);
    for (const a of alerts) {
      expect(a.labels.big).toHaveLength(MAX_LABEL_CHARS);
      expect(a.annotations.trimmed).toBe(`big cut to ${MAX_LABEL_CHARS} characters`);
      expect(a.annotations.summary!.length).toBeLessThanOrEqual(2048);
    }
  }, 180_000);
});
