// The reproduction of a silence that froze the worker (issue 28, item 1), as a user runs it: a sql
// rule whose row carries `https://x/` + 40 × `a` + `!` as a label, a silence `url=~"https://x/(\\w+)*\\.php"`
// (made with `edgelog alerts silence`), and `edgelog run`. With JavaScript's backtracking engine the
// evaluation held the event loop for minutes and SIGTERM went unheard; now `alerts check` judges it in
// well under a second, and `run` judges it on its schedule and exits within worker.shutdownTimeout of
// SIGTERM. The silence keeps its backslashes: it does not hold an alert whose URL lacks `.php`.
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { runCli, startCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

// 40 characters: a backtracking engine would take days (34 took minutes; each one doubles it).
const URL_LABEL = `https://x/${'a'.repeat(40)}!`;
const SHUTDOWN_MS = 3_000;
/** Closing Redis and the archive and Node's own exit, on a loaded machine (test/fault/scenarios/signals.ts). */
const EXIT_GRACE_MS = 4_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** When run last judged the rule's alert (null: never), read from the archive. */
function lastEvaluated(path: string): number | null {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT max(last_evaluated_at) AS t FROM alert_series_state WHERE rule = 'hostile-urls'")
      .get() as { t: number | null };
    return row.t;
  } finally {
    db.close();
  }
}

it('a nested-quantifier silence against an attacker-written label: alerts check judges it at once, run stops on SIGTERM', async () => {
  h = await harness({ now: Date.now });
  const config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    metrics: { listen: '127.0.0.1:0' },
    database: { path: h.dbPath },
    pullZones: [],
    shieldZones: [],
    worker: { shutdownTimeout: `${SHUTDOWN_MS / 1000}s` },
    alerts: {
      evaluateEvery: '10s',
      rules: [
        {
          name: 'hostile-urls',
          type: 'sql',
          sql: `SELECT 101 AS zone, '${URL_LABEL}' AS url, count(*) + 1 AS value FROM origin_error_logs`,
        },
      ],
    },
    log: { level: 'info' },
  });
  const cwd = h.dir;
  const silence = await runCli(
    [
      '--config',
      config,
      'alerts',
      'silence',
      'hostile-urls',
      '--match',
      String.raw`url=~"https://x/(\\w+)*\\.php"`,
    ],
    { cwd },
  );
  expect(silence.stderr).toBe('');
  expect(silence.stdout).toContain(String.raw`url=~"https://x/(\\w+)*\\.php"`);

  const started = Date.now();
  const check = await runCli(['--config', config, 'alerts', 'check', '--json'], { cwd });
  const checkMs = Date.now() - started;
  expect(check.code).toBe(0);
  const judged = JSON.parse(check.stdout) as {
    results: Array<{ labels?: Record<string, string>; silencedBy: string[]; state: string }>;
  };
  expect(judged.results).toEqual([
    expect.objectContaining({ state: 'firing', silencedBy: [], labels: { zone: '101', url: URL_LABEL } }),
  ]);
  // The process's start-up included, on a machine that may be busy: a bound that tells linear from
  // exponential (days), not a speed figure. The judgement itself is a few milliseconds.
  expect(checkMs).toBeLessThan(30_000);

  const run = startCli(['--config', config, 'run'], { cwd });
  try {
    // run's scheduled evaluation judges the rule again (the row `alerts check` saved moves on).
    const first = lastEvaluated(h.dbPath);
    expect(first).not.toBeNull();
    for (let i = 0; i < 300 && lastEvaluated(h.dbPath)! <= first!; i++) await sleep(100);
    expect(lastEvaluated(h.dbPath)).toBeGreaterThan(first!);
  } finally {
    const signalledAt = Date.now();
    run.child.kill('SIGTERM');
    const result = await run.done;
    const took = Date.now() - signalledAt;
    expect(result.stderr).toContain('"msg":"stopped"');
    expect(result.code).toBe(0);
    expect(took).toBeLessThan(SHUTDOWN_MS + EXIT_GRACE_MS);
  }
}, 120_000);
