// deploy/ against a real Prometheus (Debian's `prometheus` package, which brings promtool): the rules
// pass `promtool test rules`, `promtool check metrics` accepts what `edgelog run` serves, and a
// Prometheus of the test's own (a free loopback port, a temporary data directory) scrapes a running
// worker with the rules loaded: every query of the dashboard answers with data for the worker's
// instance, and the worker-down rule goes pending once the worker stops.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../src/redis/embedded-redis.js';
import { startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { metricsUrlIn } from '../support/metrics-url.js';
import { describeWith } from '../support/tools.js';
import { until } from '../support/until.js';

const DEPLOY = new URL('../../deploy/', import.meta.url).pathname;

interface Dashboard {
  panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
}
interface QueryAnswer {
  status: string;
  error?: string;
  data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

const promtool = (args: string[], input?: string) =>
  spawnSync('promtool', args, { encoding: 'utf8', ...(input === undefined ? {} : { input }) });

describeWith(['prometheus', 'promtool'], 'apt-get install prometheus', 'deploy/ on Prometheus', () => {
  let h: Harness;
  let worker: StartedCli | undefined;
  let prometheus: ChildProcess | undefined;
  let metricsUrl: string;
  let promUrl: string;
  let instance: string;

  const query = async (promql: string): Promise<QueryAnswer> =>
    (await (
      await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`)
    ).json()) as QueryAnswer;

  beforeAll(async () => {
    h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      pullZones: [101],
      shieldZones: [201],
      // finalizeDelay 0s: yesterday completes at once, also in the first hour after midnight, so the
      // dashboard's last-complete-day panel has data whenever the test runs.
      schedule: { originLookbackDays: 1, shieldLookbackDays: 1, finalizeDelay: '0s' },
      worker: { shutdownTimeout: '5s' },
      metrics: { listen: '127.0.0.1:0' },
      // A hook and a rule, so that their series exist (the rule cannot fire: nothing reaches `min`).
      alerts: {
        hooks: { ops: { type: 'webhook', url: 'http://127.0.0.1:9/never' } },
        rules: [
          {
            name: 'quiet',
            type: 'spike',
            source: 'origin',
            window: '1h',
            factor: 3,
            min: 1e9,
            hooks: ['ops'],
          },
        ],
      },
      log: { level: 'info' },
    });
    worker = startCli(['--config', config, 'run'], { cwd: h.dir });
    metricsUrl = await until(
      'the worker serving metrics',
      () => Promise.resolve(metricsUrlIn(worker!.output().stderr)),
      60_000,
    );
    instance = new URL(metricsUrl).host;

    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    const dir = join(h.dir, 'prometheus');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(join(DEPLOY, 'prometheus-rules.yml'))}]`,
        'scrape_configs:',
        '  - job_name: edgelog',
        `    static_configs: [{ targets: [${JSON.stringify(instance)}] }]`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    prometheus.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    // A few scrapes of the worker, entries archived: every rate() has two samples or more.
    await until(
      'Prometheus scraping the worker',
      async () => {
        const r = await query(`count_over_time(edgelog_redis_up{instance="${instance}"}[1m]) >= 3`);
        return r.data.result.length > 0 ? true : undefined;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; prometheus said: ${log.slice(-2000)}`);
    });
    await until(
      'entries archived',
      async () => {
        const r = await query(`sum(edgelog_entries_archived_total{instance="${instance}"}) > 0`);
        return r.data.result.length > 0 ? true : undefined;
      },
      60_000,
    );
  }, 120_000);

  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await worker?.done;
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await h?.close();
  }, 60_000);

  it('the rules pass promtool check rules and promtool test rules (deploy/prometheus-rules.test.yml)', () => {
    const check = promtool(['check', 'rules', join(DEPLOY, 'prometheus-rules.yml')]);
    expect(check.stdout + check.stderr).toContain('SUCCESS: 6 rules found');
    expect(check.status).toBe(0);
    const test = promtool(['test', 'rules', join(DEPLOY, 'prometheus-rules.test.yml')]);
    expect(test.stdout + test.stderr).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it("promtool check metrics accepts the worker's /metrics", async () => {
    const page = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(page).toContain('edgelog_entries_archived_total');
    expect(page).toContain('process_resident_memory_bytes');
    const check = promtool(['check', 'metrics'], page);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it("every query of the dashboard answers with data for the worker's instance", async () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as Dashboard;
    // Grafana's variables as a user picks them: this worker, every source and zone.
    const promql = (expr: string) =>
      expr
        .replaceAll('$instance', instance.replace(/[.]/g, '\\\\.'))
        .replaceAll('$source', '.*')
        .replaceAll('$zone', '.*')
        .replaceAll('$__rate_interval', '30s');
    const empty: string[] = [];
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      for (const { expr } of panel.targets ?? []) {
        const answer = await query(promql(expr));
        expect(answer.status, `${panel.title}: ${expr}: ${answer.error}`).toBe('success');
        if (answer.data.result.length === 0) empty.push(`${panel.title}: ${expr}`);
      }
    }
    expect(empty).toEqual([]);
    // The variables' own lists: the instance, and the zones of that instance.
    const labels = async (label: string, match: string) =>
      (
        (await (
          await fetch(`${promUrl}/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`)
        ).json()) as { data: string[] }
      ).data;
    expect(await labels('instance', 'edgelog_redis_up')).toContain(instance);
    expect(
      (await labels('zone', `edgelog_zone_ingestion_lag_seconds{instance="${instance}"}`)).sort(),
    ).toEqual(['101', '201']);
  });

  it('the worker-down rule goes pending once the worker stops', async () => {
    worker!.child.kill('SIGINT');
    expect((await worker!.done).code).toBe(0);
    await until(
      'EdgelogWorkerDown pending',
      async () => {
        const r = await query(
          `ALERTS{alertname="EdgelogWorkerDown", instance="${instance}", alertstate="pending"}`,
        );
        return r.data.result.length > 0 ? true : undefined;
      },
      60_000,
    );
    expect((await query(`up{job="edgelog", instance="${instance}"}`)).data.result[0]?.value[1]).toBe('0');
  }, 90_000);
});
