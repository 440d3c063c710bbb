// PM2 for real: PM2 from the npm registry (installed once into a cache folder), the repository's
// ecosystem.config.cjs against the simulator, a PM2 daemon of this test's own (PM2_HOME). The steps are
// docs/OPERATIONS.md's (Running it unattended), in an install directory of the test's own: a copy of
// ecosystem.config.cjs beside a link to the repository's bin/, so the configuration file put beside it
// never lands in the repository.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_QUEUE } from '../../src/queue/jobs.js';
import { redisOptions } from '../../src/redis/connection.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { childEnv, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { metricsUrlIn } from '../support/metrics-url.js';
import { until } from '../support/until.js';
import { parsePromText } from '../support/prom-text.js';

const run = promisify(execFile);
const PM2_VERSION = '7.0.4';
const REPO = new URL('../..', import.meta.url).pathname;
const cache = join(tmpdir(), `edgelog-pm2-${PM2_VERSION}`);
const pm2Bin = join(cache, 'node_modules', 'pm2', 'bin', 'pm2');

let h: Harness;
let env: NodeJS.ProcessEnv;
/** The install directory: where docs/OPERATIONS.md has the operator run `pm2 start ecosystem.config.cjs`. */
let app: string;
/** The configuration the worker should read. */
let configInput: Parameters<typeof writeConfig>[1];
const pm2 = (...args: string[]) =>
  run(process.execPath, [pm2Bin, ...args], { cwd: app, env, timeout: 60_000 });

beforeAll(async () => {
  if (!existsSync(pm2Bin)) {
    mkdirSync(cache, { recursive: true });
    await run(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, `pm2@${PM2_VERSION}`],
      {
        timeout: 180_000,
      },
    );
  }
  h = await harness({ entriesPerDay: 400, pageSize: 200, now: Date.now });
  app = join(h.dir, 'app');
  mkdirSync(app);
  copyFileSync(join(REPO, 'ecosystem.config.cjs'), join(app, 'ecosystem.config.cjs'));
  symlinkSync(join(REPO, 'bin'), join(app, 'bin'));
  configInput = {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    pullZones: [101],
    shieldZones: [201],
    schedule: { originLookbackDays: 1, shieldLookbackDays: 1 },
    worker: { shutdownTimeout: '5s' },
    metrics: { listen: '127.0.0.1:0' },
    log: { level: 'info' },
  };
  // Nothing edgelog reads comes from the environment: the access key is in the file only.
  env = childEnv({ PM2_HOME: join(h.dir, 'pm2') });
}, 240_000);

afterAll(async () => {
  await pm2('kill').catch(() => {});
  await h?.close();
});

/** A PM2 log of the worker ('out': its stdout; 'error': its stderr), or '' before PM2 made it. */
const pm2Log = (which: 'out' | 'error') => {
  const path = join(env.PM2_HOME!, 'logs', `edgelog-${which}-0.log`);
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};
/** What the worker logged below error (on stdout, EDGELOG_LOG_SPLIT: PM2's out file). */
const workerLog = () => pm2Log('out');
/** Its errors, and the CLI's one-line failures (on stderr: PM2's error file). */
const errorLog = () => pm2Log('error');

/** The worker's metrics address, from its latest 'worker running' log line. */
function metricsUrl(): string {
  const url = metricsUrlIn(workerLog());
  if (url === undefined) throw new Error('not running yet');
  return url;
}

/** The worker's log (`read`) has a line matching `pattern` after the first `from` characters. */
const logged =
  (pattern: RegExp, from: number, read = workerLog) =>
  () =>
    Promise.resolve(pattern.test(read().slice(from)) ? true : undefined);

describe('edgelog under PM2', () => {
  it('without a configuration file, says which file it looked for', async () => {
    await pm2('start', 'ecosystem.config.cjs');
    await until(
      'the missing file named in the log',
      logged(/Cannot read the configuration file \S*app\/edgelog\.config\.json: create it/, 0, errorLog),
    );
    await pm2('delete', 'edgelog');
  }, 60_000);

  it('with edgelog.config.json beside ecosystem.config.cjs: archives, serves /metrics, stops within the kill timeout, and restarts without duplicate schedulers', async () => {
    writeConfig(app, configInput);
    await pm2('start', 'ecosystem.config.cjs');
    const url = await until('Shield entries archived and counted in /metrics', async () => {
      const u = metricsUrl();
      const families = parsePromText(await (await fetch(`${u}/metrics`)).text());
      const archived = families.get('edgelog_entries_archived_total');
      // Shield entries, the table read below (origin's may be counted first).
      const shield = archived?.samples.filter((s) => s.labels.source === 'shield') ?? [];
      const total = shield.reduce((n, s) => n + s.value, 0);
      return total > 0 ? u : undefined;
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const db = openDatabase(h.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBeGreaterThan(0);
    db.close();

    // pm2 stop sends SIGINT and waits up to kill_timeout (30 s) before SIGKILL: a clean stop is well inside.
    const stopping = Date.now();
    await pm2('stop', 'edgelog');
    expect(Date.now() - stopping).toBeLessThan(15_000);
    expect(workerLog()).toMatch(/"msg":"stopped"/);
    // Before EDGELOG_LOG_SPLIT every line went to the error file: now no info line does.
    expect(errorLog()).not.toMatch(/"level":30/);

    for (let i = 0; i < 2; i++) {
      await pm2('restart', 'edgelog');
      await until('running again', async () =>
        (await fetch(`${metricsUrl()}/healthz`)).ok ? true : undefined,
      );
    }
    const queue = new Queue(INGEST_QUEUE, {
      connection: redisOptions({ url: redisUrl() }),
      prefix: h.prefix,
    });
    try {
      const schedulers = (await queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();
      expect(schedulers).toEqual(['guardian-201', 'maintenance', 'origin-101', 'shield-201']);
      // Each scheduler holds exactly one upcoming job: none was created twice by the restarts.
      const upcoming = await queue.getJobs(['delayed', 'waiting', 'prioritized']);
      const per = new Map<string, number>();
      for (const job of upcoming)
        if (job.repeatJobKey) per.set(job.repeatJobKey, (per.get(job.repeatJobKey) ?? 0) + 1);
      expect(per.size).toBeGreaterThan(0);
      expect([...per.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await queue.close();
    }
    await pm2('delete', 'edgelog');
  }, 120_000);

  it('with EDGELOG_CONFIG set in the shell that starts it, relative to the directory of that shell', async () => {
    mkdirSync(join(h.dir, 'etc'));
    renameSync(join(app, 'edgelog.config.json'), join(h.dir, 'etc', 'edgelog.config.json'));
    const from = workerLog().length;
    const errorsFrom = errorLog().length;
    await run(process.execPath, [pm2Bin, 'start', join(app, 'ecosystem.config.cjs')], {
      cwd: h.dir,
      env: { ...env, EDGELOG_CONFIG: 'etc/edgelog.config.json' },
      timeout: 60_000,
    });
    await until('running with that file', logged(/"msg":"worker running"/, from));
    expect(errorLog().slice(errorsFrom)).not.toMatch(/Cannot read the configuration file/);
    expect((await fetch(`${metricsUrl()}/healthz`)).status).toBe(200);
  }, 60_000);
});
