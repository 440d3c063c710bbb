// `edgelog run` as a user runs it serves /metrics, /healthz and /readyz on metrics.listen (and the web
// console on console.listen), stops serving when it stops, and refuses to start on an address in use
// with a line that says what to set.
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { metricsUrlIn } from '../support/metrics-url.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';
import type { ConfigInput } from '../../src/config/index.js';

let h: Harness;
afterEach(async () => h?.close());

function config(listen: string | null, extra: ConfigInput = {}) {
  return writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    pullZones: [101],
    shieldZones: [201],
    schedule: { originLookbackDays: 1, shieldLookbackDays: 1 },
    worker: { shutdownTimeout: '5s' },
    metrics: { listen },
    log: { level: 'info' },
    ...extra,
  });
}

async function get(url: string): Promise<{ status: number; text: string } | undefined> {
  try {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  } catch {
    return undefined; // not listening (yet, or any more)
  }
}

describe('edgelog run and its metrics endpoint', () => {
  it('serves /metrics that parse, counting what it archives; /readyz turns ready; stops serving on SIGINT', async () => {
    h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
    // Port 0: the worker says in its log which port it got.
    const run = startCli(['--config', config('127.0.0.1:0'), 'run'], { cwd: h.dir });
    let base = '';
    try {
      // Ready once the schedulers exist; archived once the catch-up has stored the days.
      let archived = 0;
      for (const start = Date.now(); Date.now() - start < 20_000 && archived === 0; await sleep(200)) {
        base ||= metricsUrlIn(run.output().stderr) ?? '';
        const page = base ? await get(`${base}/metrics`) : undefined;
        if (!page) continue;
        const f = parsePromText(page.text);
        archived = sampleValue(f, 'edgelog_entries_archived_total', { source: 'shield', zone: '201' });
      }
      expect(archived).toBeGreaterThan(0);
      const families = parsePromText((await get(`${base}/metrics`))!.text);
      expect(families.get('edgelog_zone_ingestion_lag_seconds')!.type).toBe('gauge');
      expect(families.get('process_cpu_seconds_total')!.type).toBe('counter');
      expect(
        sampleValue(families, 'edgelog_api_request_duration_seconds_count', {
          operation: 'shieldEventLogs',
          status_class: '2xx',
        }),
      ).toBeGreaterThan(0);
      const ready = await get(`${base}/readyz`);
      expect(ready?.status).toBe(200);
      expect(JSON.parse(ready!.text)).toMatchObject({ status: 'ready' });
      expect(JSON.parse((await get(`${base}/healthz`))!.text)).toMatchObject({ status: 'ok' });
    } finally {
      run.child.kill('SIGINT');
    }
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`"url":"${base}","msg":"serving /metrics, /healthz and /readyz"`);
    expect(result.stderr).toContain(`"metrics":"${base}"`);
    expect(result.stderr).not.toContain('"level":50');
    expect(await get(`${base}/healthz`)).toBeUndefined();
  });

  it('refuses to start on an address in use, naming the key to set', async () => {
    h = await harness({ entriesPerDay: 10 });
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await runCli(['--config', config(`127.0.0.1:${port}`), 'run'], { cwd: h.dir });
      expect(result.code).toBe(1);
      const line = `edgelog: cannot serve metrics on 127.0.0.1:${port}: the address is in use (another edgelog run?): set metrics.listen to a free "host:port", or null to turn it off`;
      expect(result.stderr).toContain(line);
      // Said once, and nothing after it: the worker never ran, so it does not say it stopped.
      const plain = result.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'));
      expect(plain).toEqual([expect.stringMatching(/^edgelog: cannot serve metrics on /)]);
      expect(result.stderr).not.toContain('"msg":"stopped"');
    } finally {
      taken.close();
    }
  });
});

// `edgelog run` with a `console` section serves the web console beside the worker: its address in the
// 'worker running' line, the overview answering with the queue of the worker's own Redis, and nothing
// served once it stops; off loopback without its token it refuses to start, naming the key.
const consoleUrlIn = (log: string) => [...log.matchAll(/"console":"(http:\/\/[^"]+)"/g)].at(-1)?.[1];

describe('edgelog run and its console', () => {
  it('serves the console on console.listen, with its bounds and the worker’s queue; stops with the worker', async () => {
    h = await harness({ entriesPerDay: 100, pageSize: 50, now: Date.now });
    const run = startCli(
      ['--config', config(null, { console: { listen: '127.0.0.1:0', timeout: '10s', limit: 50 } }), 'run'],
      { cwd: h.dir },
    );
    let base: string | undefined;
    try {
      for (const start = Date.now(); Date.now() - start < 20_000 && base === undefined;) {
        base = consoleUrlIn(run.output().stderr);
        if (base === undefined) await new Promise((r) => setTimeout(r, 200));
      }
      expect(base, run.output().stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const overview = (await (await fetch(new URL('/api/v1/overview', base))).json()) as {
        queue: { up: boolean };
      };
      expect(overview.queue).toMatchObject({ up: true });
      const q = await fetch(new URL('/api/v1/query?sql=SELECT%201%20AS%20one', base));
      // console.limit and console.timeout are the answer's bounds.
      expect(await q.json()).toMatchObject({ limit: 50, timeoutMs: 10_000, rows: [{ one: 1 }] });
    } finally {
      run.child.kill('SIGINT');
    }
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('"level":50');
    await expect(fetch(new URL('/api/v1/schema', base))).rejects.toThrow();
  });

  it('refuses to start a console off loopback without its token, naming the key', async () => {
    h = await harness({ entriesPerDay: 10 });
    const r = await runCli(['--config', config(null, { console: { listen: '0.0.0.0:0' } }), 'run'], {
      cwd: h.dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'console.listen: refusing to listen on 0.0.0.0 without a token: set EDGELOG_CONSOLE_TOKEN',
    );
  });
});
