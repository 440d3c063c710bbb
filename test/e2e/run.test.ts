// `edgelog run` as PM2 runs it: catch up at start, stop cleanly on SIGINT, restart without duplicates.
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/redis/connection.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { dayOf } from '../../src/time/utc-day.js';
import { clearOfMidnight } from '../fault/lib/clock.js';
import { notCreatedYet } from '../fault/lib/progress.js';
import { waitFor } from '../fault/lib/wait.js';
import { killLeftOver, startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

// Three rounds of start, catch-up and stop; on a loaded machine a round may take a while.
const ROUND_MS = 40_000;
const TEST_MS = 3 * ROUND_MS + 60_000;

let h: Harness;
const children: StartedCli[] = [];
afterEach(async () => {
  await killLeftOver(children);
  await h?.close();
});

describe('edgelog run', () => {
  it(
    'catches up every zone at start, stops on SIGINT within the bound, and restarts without duplicate schedulers',
    async () => {
      // The real clock: `run` plans from Date.now(), and the simulator must agree on what today is; the
      // test keeps clear of midnight, when "today" would change under it.
      await clearOfMidnight(TEST_MS);
      h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
      const config = writeConfig(h.dir, {
        api: { ...h.urls, accessKey: h.sim.accessKey },
        redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
        metrics: { listen: '127.0.0.1:0' }, // a free port: runs in parallel never collide on 9469
        database: { path: h.dbPath },
        pullZones: [101],
        shieldZones: [201],
        schedule: { originLookbackDays: 1, shieldLookbackDays: 1 },
        worker: { shutdownTimeout: '3s' },
        log: { level: 'info' },
      });
      const today = dayOf(Date.now());
      for (let round = 0; round < 3; round++) {
        const spawnedAt = Date.now();
        const run = startCli(['--config', config, 'run'], { cwd: h.dir });
        children.push(run);
        const caughtUp = () => {
          let db;
          try {
            db = openDatabase(h.dbPath, { readonly: true });
            const done = db
              .prepare("SELECT count(*) FROM ingest_ledger WHERE state IN ('partial', 'complete')")
              .pluck()
              .get() as number;
            const refreshed = db
              .prepare('SELECT count(*) FROM ingest_ledger WHERE log_date = ? AND finished_at >= ?')
              .pluck()
              .get(today, spawnedAt) as number;
            // origin + shield × yesterday + today, and today fetched again by this very run
            return done >= 4 && refreshed === 2 ? done : undefined;
          } catch (err) {
            if (notCreatedYet(err)) return undefined; // the worker has not created the archive yet
            throw err;
          } finally {
            db?.close();
          }
        };
        await waitFor('this run to catch up yesterday and refresh today', caughtUp, {
          timeoutMs: ROUND_MS,
        }).catch((err: unknown) => {
          throw new Error(`${(err as Error).message}; the worker wrote:\n${run.output().stderr}`);
        });
        const stoppedAt = Date.now();
        run.child.kill('SIGINT');
        const result = await run.done;
        expect(result.code).toBe(0);
        // The shutdown bound, and slack for the process to end on a loaded machine (closing Redis and the
        // archive; Node's own exit).
        expect(Date.now() - stoppedAt).toBeLessThan(3_000 + 4_000);
        expect(result.stderr).toContain('"msg":"worker running"');
        expect(result.stderr).toContain('"msg":"stopped"');
        expect(result.stderr).not.toContain('"level":50'); // no error lines
      }
      const db = openDatabase(h.dbPath, { readonly: true });
      const rows = db
        .prepare('SELECT source, log_date, state FROM ingest_ledger ORDER BY source, log_date')
        .all();
      db.close();
      expect(rows).toContainEqual({ source: 'shield', log_date: today, state: 'partial' });
      const queue = new Queue('ingest', { connection: redisOptions({ url: redisUrl() }), prefix: h.prefix });
      const schedulers = (await queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();
      await queue.close();
      expect(schedulers).toEqual(['guardian-201', 'maintenance', 'origin-101', 'shield-201']);
    },
    TEST_MS,
  );
});
