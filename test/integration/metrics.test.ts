// /metrics, /healthz and /readyz of an engine against the simulator and a Redis of this test's own (so
// that it can be stopped): the page parses with a strict text-format parser, the counters grow as a
// sync archives entries, the freshness gauges tell the ledger's truth, and /readyz follows Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import { silentLogger } from '../../src/logger.js';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { addDays, dayEndMs } from '../../src/time/utc-day.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { parsePromText, sampleValue, type Family } from '../support/prom-text.js';

let h: Harness | undefined;
let engine: Engine | undefined;
let redis: EmbeddedRedis | undefined;
let redisDir: string | undefined;
afterEach(async () => {
  await engine?.close();
  await h?.close();
  await redis?.stop();
  if (redisDir) rmSync(redisDir, { recursive: true, force: true });
  h = engine = redis = redisDir = undefined;
});

async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePromText(await res.text());
}

async function readyz(url: string): Promise<{
  status: number;
  body: { status: string; checks: Record<string, { ok: boolean; problem?: string }> };
}> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as never };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(200)) {
    const v = await fn();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** As `edgelog sync` does: on a private queue, so the schedulers' own jobs do not run meanwhile. */
async function sync(engine: Engine, jobs: Array<{ source: 'origin' | 'shield'; zone: number; day: string }>) {
  const own = engine.privateRuntime(`sync-${Date.now()}`);
  try {
    const added = await own.enqueueSync(jobs.map((j) => ({ ...j, reason: 'sync' as const })));
    own.startWorker();
    return await own.waitFor<DayResult>(added);
  } finally {
    await own.discard();
  }
}

const EXPECTED = [
  'edgelog_entries_received_total',
  'edgelog_entries_archived_total',
  'edgelog_entries_malformed_total',
  'edgelog_entries_quarantined_total',
  'edgelog_pages_total',
  'edgelog_api_request_duration_seconds',
  'edgelog_api_retries_total',
  'edgelog_api_rate_limited_total',
  'edgelog_day_jobs_total',
  'edgelog_alert_deliveries_total',
  'edgelog_zone_last_complete_day_timestamp_seconds',
  'edgelog_zone_newest_entry_timestamp_seconds',
  'edgelog_zone_ingestion_lag_seconds',
  'edgelog_zone_dates_at_risk',
  'edgelog_queue_jobs',
  'edgelog_redis_up',
  'edgelog_alert_states',
  'edgelog_archive_size_bytes',
  'edgelog_scrape_errors_total',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
];

describe('metrics and health endpoints', () => {
  it('serve the Prometheus text format; counters grow with a sync; freshness gauges; /readyz follows Redis', async () => {
    redisDir = mkdtempSync(join(tmpdir(), 'edgelog-metrics-redis-'));
    const port = await freePort();
    // Persistent, so that the schedulers are still there when it comes back.
    redis = await startRedisServer({ dir: redisDir, port, persistent: true });
    h = await harness({
      entriesPerDay: 1_200,
      pageSize: 300,
      malformedRate: 0.02,
      oddEntryRate: 0.01,
      faults: [
        { kind: '429', times: 1, retryAfter: '0', operation: 'shieldEventLogs' },
        { kind: '503', times: 1, operation: 'originErrorLogs' },
      ],
    });
    // As edgelog run starts it: counting metrics (other commands do not load prom-client).
    engine = await startEngine(
      h.config({
        redis: { url: redis.display },
        metrics: { listen: '127.0.0.1:0' },
        worker: { pageThreads: 1 }, // Shield requests on a page thread: their metrics are relayed
        alerts: {
          hooks: { ops: { type: 'webhook', url: 'http://127.0.0.1:9/never' } },
          rules: [{ name: 'flat', type: 'flatline', source: 'shield', maxAge: '3h', hooks: [] }],
        },
      }),
      silentLogger(),
      { now: () => NOW, metrics: true },
    );
    const server = (await engine.serveMetrics())!;
    expect(server).not.toBeNull();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // Before anything: every family has HELP and TYPE (the parser refuses it otherwise).
    const before = await scrape(server.url);
    for (const name of EXPECTED) expect(before.has(name), name).toBe(true);
    for (const [name, f] of before) {
      expect(f.help.length, name).toBeGreaterThan(0);
      if (name.startsWith('edgelog_') && f.type === 'counter') expect(name).toMatch(/_total$/);
    }
    expect(sampleValue(before, 'edgelog_entries_archived_total', { source: 'shield', zone: '201' })).toBe(0);
    expect(sampleValue(before, 'edgelog_zone_ingestion_lag_seconds', { source: 'shield', zone: '201' })).toBe(
      Infinity,
    );
    expect(sampleValue(before, 'edgelog_zone_dates_at_risk', { source: 'shield', zone: '201' })).toBe(2);
    expect(sampleValue(before, 'edgelog_redis_up')).toBe(1);
    expect(sampleValue(before, 'edgelog_alert_states', { rule: 'flat', state: 'firing' })).toBe(0);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', pid: process.pid });
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(405);

    // Not ready until the schedulers exist (edgelog run reconciles them first thing).
    const early = await readyz(server.url);
    expect(early.status).toBe(503);
    expect(early.body.status).toBe('not ready');
    expect(early.body.checks.schedulers!.problem).toMatch(/^schedulers missing in Redis: .*origin-101/);
    expect(early.body.checks.redis).toEqual({ ok: true });
    await engine.runtime.reconcileSchedulers();
    expect(await readyz(server.url)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: {
          redis: { ok: true },
          archive: { ok: true },
          migrations: { ok: true },
          schedulers: { ok: true },
        },
      },
    });

    const yesterday = addDays(TODAY, -1);
    const outcomes = await sync(engine, [
      { source: 'shield', zone: 201, day: yesterday },
      { source: 'shield', zone: 201, day: TODAY },
      { source: 'origin', zone: 101, day: yesterday },
    ]);
    expect(outcomes.map((o) => o.error)).toEqual([undefined, undefined, undefined]);
    const results = outcomes.map((o) => o.result!);
    const shield = results.filter((r) => r.source === 'shield');
    const sum = (rs: DayResult[], k: 'newEntries' | 'entries' | 'malformed' | 'quarantined' | 'pages') =>
      rs.reduce((a, r) => a + r[k], 0);

    const after = await scrape(server.url);
    const shieldZone = { source: 'shield', zone: '201' };
    expect(sampleValue(after, 'edgelog_entries_archived_total', shieldZone)).toBe(sum(shield, 'newEntries'));
    expect(sampleValue(after, 'edgelog_entries_archived_total', shieldZone)).toBeGreaterThan(1000);
    expect(sampleValue(after, 'edgelog_entries_received_total', shieldZone)).toBe(sum(shield, 'entries'));
    expect(sampleValue(after, 'edgelog_entries_malformed_total', shieldZone)).toBe(sum(shield, 'malformed'));
    expect(sampleValue(after, 'edgelog_entries_quarantined_total', shieldZone)).toBe(
      sum(shield, 'quarantined'),
    );
    expect(sum(shield, 'quarantined')).toBeGreaterThan(0);
    expect(sampleValue(after, 'edgelog_pages_total', shieldZone)).toBe(sum(shield, 'pages'));
    const origin = results.filter((r) => r.source === 'origin');
    expect(sampleValue(after, 'edgelog_entries_archived_total', { source: 'origin', zone: '101' })).toBe(
      sum(origin, 'newEntries'),
    );

    // Requests, from the page thread too; each Shield page met one 429, the origin day one 503.
    const shieldPages = sum(shield, 'pages');
    const requests = (operation: string, status_class: string) =>
      sampleValue(after, 'edgelog_api_request_duration_seconds_count', { operation, status_class });
    expect(requests('shieldEventLogs', '2xx')).toBe(shieldPages);
    expect(requests('shieldEventLogs', '4xx')).toBe(shieldPages);
    expect(sampleValue(after, 'edgelog_api_rate_limited_total', { operation: 'shieldEventLogs' })).toBe(
      shieldPages,
    );
    expect(
      sampleValue(after, 'edgelog_api_retries_total', {
        operation: 'shieldEventLogs',
        reason: 'rate_limited',
      }),
    ).toBe(shieldPages);
    expect(requests('originErrorLogs', '5xx')).toBe(1);
    expect(
      sampleValue(after, 'edgelog_api_retries_total', {
        operation: 'originErrorLogs',
        reason: 'server_error',
      }),
    ).toBe(1);
    expect(sampleValue(after, 'edgelog_day_jobs_total', { source: 'shield', outcome: 'complete' })).toBe(1);
    expect(sampleValue(after, 'edgelog_day_jobs_total', { source: 'shield', outcome: 'partial' })).toBe(1);
    expect(sampleValue(after, 'edgelog_day_jobs_total', { source: 'origin', outcome: 'complete' })).toBe(1);

    // Freshness, lag and risk from the ledger, at the engine's clock (noon).
    const db = h.db();
    const newest = db
      .prepare('SELECT max(timestamp) FROM shield_event_logs WHERE shield_zone_id = 201')
      .pluck()
      .get() as number;
    expect(sampleValue(after, 'edgelog_zone_newest_entry_timestamp_seconds', shieldZone)).toBe(newest / 1000);
    expect(sampleValue(after, 'edgelog_zone_last_complete_day_timestamp_seconds', shieldZone)).toBe(
      dayEndMs(yesterday) / 1000,
    );
    // Today's partial pass started at NOW: the archive is known complete up to then.
    expect(sampleValue(after, 'edgelog_zone_ingestion_lag_seconds', shieldZone)).toBe(0);
    expect(sampleValue(after, 'edgelog_zone_dates_at_risk', shieldZone)).toBe(1); // the day before yesterday
    expect(sampleValue(after, 'edgelog_zone_dates_at_risk', { source: 'origin', zone: '101' })).toBe(1);
    // The schedulers' first jobs wait in the shared queue (no worker takes them in this test).
    const depths = await engine.runtime.queue.getJobCounts('waiting', 'delayed');
    expect(depths.waiting).toBeGreaterThan(0);
    expect(sampleValue(after, 'edgelog_queue_jobs', { queue: 'ingest', state: 'waiting' })).toBe(
      depths.waiting,
    );
    expect(sampleValue(after, 'edgelog_queue_jobs', { queue: 'ingest', state: 'delayed' })).toBe(
      depths.delayed,
    );
    expect(sampleValue(after, 'edgelog_queue_jobs', { queue: 'notify', state: 'failed' })).toBe(0);
    expect(sampleValue(after, 'edgelog_archive_size_bytes', { file: 'database' })).toBeGreaterThan(0);
    expect(
      after
        .get('edgelog_archive_size_bytes')!
        .samples.map((s) => s.labels.file)
        .sort(),
    ).toEqual(['database', 'wal']);
    expect(NOW).toBe(engine.now());

    // Redis stops: /readyz says so within its bound, and a scrape still answers, without queue depths.
    // Each probe and collector waits 1 s at most; the rest is slack for a loaded machine (what this
    // catches is a wait for Redis itself, which comes back only when the test restarts it).
    const bound = 1_000 + 4_000;
    await redis.stop();
    const started = Date.now();
    const down = await readyz(server.url);
    expect(Date.now() - started).toBeLessThan(bound);
    expect(down.status).toBe(503);
    expect(down.body.checks.redis!.problem).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer/);
    expect(down.body.checks.schedulers!.ok).toBe(false);
    expect(down.body.checks.archive).toEqual({ ok: true });
    const scrapedAt = Date.now();
    const blind = await scrape(server.url);
    expect(Date.now() - scrapedAt).toBeLessThan(bound);
    expect(sampleValue(blind, 'edgelog_redis_up')).toBe(0);
    expect(blind.get('edgelog_queue_jobs')!.samples).toEqual([]);
    expect(sampleValue(blind, 'edgelog_entries_archived_total', shieldZone)).toBe(sum(shield, 'newEntries'));

    // Redis comes back on the same port: ready again once the connections are.
    redis = await startRedisServer({ dir: redisDir, port, persistent: true });
    const back = await until('/readyz to be ready again', async () => {
      const r = await readyz(server.url);
      return r.status === 200 ? r : undefined;
    });
    expect(back.body.status).toBe('ready');
    expect(sampleValue(await scrape(server.url), 'edgelog_redis_up')).toBe(1);
  });

  it("shows the history process's memory while it runs, and no series before it starts or after it ends", async () => {
    redisDir = mkdtempSync(join(tmpdir(), 'edgelog-metrics-redis-'));
    redis = await startRedisServer({ dir: redisDir, port: await freePort() });
    h = await harness({ entriesPerDay: 100 });
    engine = await startEngine(
      h.config({ redis: { url: redis.display }, metrics: { listen: '127.0.0.1:0' } }),
      silentLogger(),
      { now: () => NOW, metrics: true },
    );
    const server = (await engine.serveMetrics())!;
    const rss = 'edgelog_child_process_resident_memory_bytes';
    const peak = 'edgelog_child_process_peak_resident_memory_bytes';
    // No child yet, and a scrape starts none.
    const before = await scrape(server.url);
    expect(before.get(rss)!.samples).toEqual([]);
    expect(before.get(peak)!.samples).toEqual([]);

    await engine.history!.flush(); // starts the child
    const running = await scrape(server.url);
    const now = sampleValue(running, rss, { process: 'history' });
    expect(now).toBeGreaterThan(20 * 2 ** 20); // a Node process with the store open
    expect(sampleValue(running, peak, { process: 'history' })).toBeGreaterThanOrEqual(now);

    await engine.history!.close();
    expect((await scrape(server.url)).get(rss)!.samples).toEqual([]);
  });

  it('an engine of another command (sync, demo) counts nothing and serves nothing', async () => {
    h = await harness({ entriesPerDay: 10 });
    const other = await h.engine({ metrics: { listen: '127.0.0.1:0' } });
    expect(other.metrics).toBeUndefined();
    expect(await other.serveMetrics()).toBeNull();
  });
});
