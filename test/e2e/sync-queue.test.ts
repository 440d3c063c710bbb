// `edgelog sync` as a user runs it: it stops on one SIGINT within the shutdown bound, and it works the
// days it was asked for and nothing else, even on a queue shared with `edgelog run`.
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import { INGEST_QUEUE } from '../../src/queue/jobs.js';
import { redisOptions } from '../../src/redis/connection.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, startCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const YESTERDAY = addDays(TODAY, -1);

function configFile(extra: Record<string, unknown> = {}) {
  return writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms' },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    pullZones: [101],
    shieldZones: [201],
    log: { level: 'warn' },
    ...extra,
  });
}

function ledgerPages(): number {
  try {
    const db = openDatabase(h.dbPath, { readonly: true });
    try {
      return (
        (db
          .prepare("SELECT coalesce(max(pages), 0) FROM ingest_ledger WHERE source = 'shield'")
          .pluck()
          .get() as number) ?? 0
      );
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet
  }
}

describe('edgelog sync', () => {
  // It used to log "engine closed" after a SIGINT and stay alive: a poll of the job wait was never cleared.
  it('exits within worker.shutdownTimeout of one SIGINT, and a later sync completes the day', async () => {
    h = await harness({ entriesPerDay: 20_000, pageSize: 500, latencyMs: 150 });
    const config = configFile({ worker: { shutdownTimeout: '2s' } });
    const args = ['--config', config, 'sync', '--date', YESTERDAY, '--source', 'shield', '--json'];
    const first = startCli(args, { cwd: h.dir });
    for (let i = 0; i < 400 && ledgerPages() < 2; i++) await sleep(25);
    expect(ledgerPages()).toBeGreaterThanOrEqual(2);
    const signalled = Date.now();
    first.child.kill('SIGINT');
    const stopped = await first.done;
    const tookMs = Date.now() - signalled;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted; days in progress keep their checkpoints/);
    expect(tookMs).toBeLessThan(2_000 + 4_000); // the bound, and slack for a loaded machine

    const second = await runCli(args, { cwd: h.dir });
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as SyncSummary;
    expect(summary.results[0]).toMatchObject({ outcome: 'complete' });
    const db = openDatabase(h.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBe(20_000);
    db.close();
  });

  // It used to start a worker on the shared ingest queue, and so also worked what an interrupted `run`
  // had left there (other days re-fetched, 121 s instead of one day's work).
  it('works only the days it was asked for, and leaves no queue of its own behind', async () => {
    h = await harness({ entriesPerDay: 300 });
    const config = configFile();
    const queue = new Queue(INGEST_QUEUE, {
      connection: redisOptions({ url: redisUrl() }),
      prefix: h.prefix,
    });
    const client = new Redis({ ...redisOptions({ url: redisUrl() }), maxRetriesPerRequest: 3 });
    try {
      const leftover = addDays(TODAY, -2);
      await queue.add('day', { source: 'origin', zone: 101, day: leftover, reason: 'catch-up' });
      const result = await runCli(
        ['--config', config, 'sync', '--date', YESTERDAY, '--source', 'origin', '--json'],
        {
          cwd: h.dir,
        },
      );
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as SyncSummary).results.map((r) => r.day)).toEqual([YESTERDAY]);
      expect(await queue.getJobCounts('waiting', 'active', 'completed')).toEqual({
        waiting: 1,
        active: 0,
        completed: 0,
      });
      const db = openDatabase(h.dbPath, { readonly: true });
      expect(db.prepare('SELECT log_date FROM ingest_ledger').pluck().all()).toEqual([YESTERDAY]);
      db.close();
      expect(await client.keys(`${h.prefix}:sync-*`)).toEqual([]);
    } finally {
      await queue.close();
      client.disconnect();
    }
  });
});
