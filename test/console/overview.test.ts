// The overview's figures over real loopback HTTP: ingestion lag per zone, the alerts firing and the
// history's size as `edgelog query` answers the same questions, and the ingest queue's job counts read
// from the test run's real Redis — absent, not an error, when Redis does not answer.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { INGEST_QUEUE } from '../../src/queue/jobs.js';
import { readQueueStatus } from '../../src/queue/queue-status.js';
import { redisOptions } from '../../src/redis/connection.js';
import { runCli } from '../support/cli.js';
import { NOW } from '../support/harness.js';
import { describeStores } from '../support/stores.js';
import { consoleArchive, serveArchive, type ConsoleArchive } from './support.js';

describeStores('edgelog serve: the overview', (store) => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let deaf: ConsoleServer;
  let queue: Queue;

  beforeAll(async () => {
    a = await consoleArchive(store);
    const config = a.h.config();
    // An alert firing, as the evaluator saves it (its detail is attackers' text like any other).
    const engine = await a.h.engine();
    await engine.store.alerts.save(
      { rule: 'origin-5xx', zone: 101, source: 'origin', fingerprint: 'f' },
      undefined,
      { state: 'firing', since: NOW - 60_000, lastNotifiedAt: null, firstEvaluatedAt: NOW - 120_000 },
      { value: 12, threshold: 10, detail: '<img src=x onerror=alert(1)>' },
      [],
      NOW,
    );
    // One job waiting its time in the ingest queue of this test's Redis prefix.
    queue = new Queue(INGEST_QUEUE, {
      connection: redisOptions({ url: config.redis.url }),
      prefix: config.redis.prefix,
    });
    await queue.add('probe', {}, { delay: 3_600_000 });
    server = await serveArchive(a, { queue: () => readQueueStatus(config) });
    const nowhere = {
      ...config,
      redis: { ...config.redis, url: 'redis://127.0.0.1:1' },
      redisUrlFrom: 'config',
    };
    deaf = await serveArchive(a, { queue: () => readQueueStatus(nowhere) });
  }, 120_000);
  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    await deaf?.close();
    await server?.close();
    await a?.h.close();
  });

  const overview = async (on: ConsoleServer) => {
    const res = await fetch(new URL('/api/v1/overview', on.url));
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const cliQuery = async (sql: string) => {
    const r = await runCli(['--config', a.configPath, 'query', '--json', sql], { cwd: a.h.dir });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  };

  it('shows ingestion lag per zone as the ledger says it is covered', async () => {
    const o = await overview(server);
    const ledger = (await cliQuery(
      'SELECT source, zone_id, max(covered_until) AS covered FROM ingest_ledger GROUP BY ALL ORDER BY ALL',
    )) as Array<{ source: string; zone_id: number; covered: number | null }>;
    expect(ledger.length).toBe(2);
    expect(o.zones).toEqual(
      ledger.map((r): unknown =>
        expect.objectContaining({
          source: r.source,
          zone: r.zone_id,
          coveredUntil: r.covered,
          lagMs: r.covered === null ? null : Math.max(0, NOW - r.covered),
        }),
      ),
    );
  });

  it('shows the alerts firing and the history’s size and bytes per entry, as `edgelog query` counts them', async () => {
    const o = await overview(server);
    expect(o.firing).toEqual([
      {
        rule: 'origin-5xx',
        source: 'origin',
        target: '101',
        since: NOW - 60_000,
        last_value: 12,
        last_threshold: 10,
      },
    ]);
    const [h] = (await cliQuery(
      'SELECT count(*) AS days, sum(entries) AS entries, sum(bytes) AS bytes FROM history_days WHERE compacted_at IS NOT NULL',
    )) as [{ days: number; entries: number; bytes: number }];
    expect(h.days).toBeGreaterThan(0);
    expect(o.history).toMatchObject({ days: h.days, entries: h.entries, bytes: h.bytes });
    expect((o.history as { bytesPerEntry: number }).bytesPerEntry).toBe(
      Math.round((h.bytes / h.entries) * 10) / 10,
    );
  });

  it("shows the ingest queue's job counts when Redis answers, and none when it does not", async () => {
    const o = await overview(server);
    expect(o.queue).toMatchObject({ up: true, counts: { delayed: 1, waiting: 0, active: 0, failed: 0 } });
    expect(JSON.stringify(o.queue)).not.toMatch(/password/i);
    const started = Date.now();
    const d = await overview(deaf);
    expect(d.queue).toEqual({ up: false });
    expect(Date.now() - started).toBeLessThan(5_000);
    // The rest of the overview is there all the same.
    expect(d.history).toEqual(o.history);
  });
});
