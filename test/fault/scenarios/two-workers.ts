// Scenario 6: two `edgelog run` processes on one Redis and one archive file, then a third that plans
// every zone again: the archive ends exact, no process logs a lock error, and each finished day was
// fetched once however many workers planned it.
import { Queue } from 'bullmq';
import { INGEST_QUEUE } from '../../../src/queue/jobs.js';
import { redisOptions } from '../../../src/redis/connection.js';
import { toApiDate } from '../../../src/time/utc-day.js';
import { termProblems } from '../../support/term-backfill.js';
import { archiveProblems, ledgerSettled, type DayRef } from '../lib/archive-check.js';
import { clearOfMidnight, pastDays } from '../lib/clock.js';
import { countingProxy } from '../lib/counting-proxy.js';
import type { ScenarioReport } from '../lib/report.js';
import { Scene, type CliRun } from '../lib/scene.js';
import { waitFor, WaitTimeout, within } from '../lib/wait.js';
import { recordSecretScan, startReport } from '../lib/report.js';

export interface TwoWorkersOptions {
  seed: number;
  entriesPerDay: number;
}

export interface TwoWorkersReport extends ScenarioReport {
  /** Per finished day ("shield 201 2026-11-21"): how many times its fetch began. */
  fetches: Record<string, number>;
}

const ZONES = { origin: [101, 102], shield: [201, 202] } as const;
const LOCK_ERROR = /database is locked|SQLITE_BUSY|Missing lock|could not renew lock/i;

export async function twoWorkersScenario(opts: TwoWorkersOptions): Promise<TwoWorkersReport> {
  await clearOfMidnight(180_000);
  const scene = await Scene.open({
    name: 'two-workers',
    seed: opts.seed,
    clock: 'real',
    sim: {
      pullZones: [...ZONES.origin],
      shieldZones: [...ZONES.shield],
      entriesPerDay: opts.entriesPerDay,
      pageSize: 200,
      latencyMs: 10,
    },
  });
  const proxy = await countingProxy(scene.urls);
  const report: TwoWorkersReport = {
    ...startReport('two-workers-one-archive', opts.seed),
    fetches: {},
  };
  const workers: CliRun[] = [];
  try {
    scene.writeConfig({
      api: proxy.urls,
      schedule: { finalizeDelay: '0s' },
      worker: { shutdownTimeout: '3s' },
    });
    const days = pastDays(scene.now(), 2);
    const refs: DayRef[] = days.flatMap((day) => [
      ...ZONES.origin.map((zone) => ({ source: 'origin' as const, zone, day })),
      ...ZONES.shield.map((zone) => ({ source: 'shield' as const, zone, day })),
    ]);
    const exact = async () => {
      try {
        const db = await scene.reader();
        if (!(await ledgerSettled(db, refs))) return undefined;
        return (await archiveProblems(db, scene.sim, refs, { at: scene.now() })).length === 0
          ? true
          : undefined;
      } catch {
        return undefined; // the archive is still being created
      } finally {
        await scene.closeReaders();
      }
    };
    workers.push(scene.start(['run']), scene.start(['run']));
    report.runs += 2;
    try {
      await waitFor('two workers to archive the days before today', exact, {
        timeoutMs: 180_000,
        everyMs: 250,
      });
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
      // What stands where: the ledger, what is missing, and what the workers said.
      const db = await scene.reader();
      const ledger = await db.all(
        'SELECT source, zone_id, log_date, state, pages, archived_entries, lease_owner, last_error FROM ingest_ledger',
      );
      report.problems.push(`${err.message}; ledger: ${JSON.stringify(ledger)}`);
      report.problems.push(...(await archiveProblems(db, scene.sim, refs, { at: scene.now() })).slice(0, 5));
      await scene.closeReaders();
      workers.forEach((w, i) => {
        const lines = w
          .output()
          .stderr.split('\n')
          .filter((l) => /"level":(40|50|60)/.test(l));
        report.problems.push(`worker ${i + 1} warned: ${lines.slice(-5).join('\n') || 'nothing'}`);
      });
      return report;
    }
    // A third worker plans every zone again at its start; the finished days must not be fetched again.
    const third = scene.start(['run']);
    workers.push(third);
    report.runs++;
    await waitFor(
      'the third worker to start',
      () => (/worker running/.test(third.output().stderr) ? true : undefined),
      {
        timeoutMs: 60_000,
      },
    );
    await waitFor(
      'the jobs it planned to be done',
      async () => ((await queueIdle(scene)) ? true : undefined),
      {
        timeoutMs: 60_000,
        everyMs: 250,
      },
    );
    for (const w of workers) w.child.kill('SIGINT');
    report.kills += workers.length;
    const results = await Promise.all(workers.map((w) => within(w.done, 30_000)));
    results.forEach((r, i) => {
      if (!r) report.problems.push(`worker ${i + 1} did not stop within 30 s of SIGINT`);
      else {
        if (r.code !== 0)
          report.problems.push(`worker ${i + 1} exited ${r.code ?? r.signal}: ${r.stderr.slice(-600)}`);
        const locked = r.stderr.split('\n').filter((l) => LOCK_ERROR.test(l));
        if (locked.length > 0)
          report.problems.push(`worker ${i + 1} logged lock errors: ${locked[0]!.slice(0, 300)}`);
        const errors = r.stderr.split('\n').filter((l) => /"level":(50|60)/.test(l));
        if (errors.length > 0)
          report.problems.push(`worker ${i + 1} logged errors: ${errors[0]!.slice(0, 300)}`);
      }
    });
    for (const ref of refs) {
      const date = toApiDate(ref.day);
      const paths =
        ref.source === 'shield'
          ? [`/api/shield/event-logs/${ref.zone}/${date}/`, `/api/shield/event-logs/${ref.zone}/${date}`]
          : [`/origin/${ref.zone}/${date}`];
      const n = paths.reduce((a, p) => a + (proxy.counts.get(p) ?? 0), 0);
      const key = `${ref.source} ${ref.zone} ${ref.day}`;
      report.fetches[key] = n;
      if (n !== 1) {
        // What the workers said about that day, to tell a retried request from a second pass.
        const said = results.flatMap((r, i) =>
          (r?.stderr ?? '')
            .split('\n')
            .filter(
              (l) =>
                l.includes(`"zone":${ref.zone},`) &&
                // A day's own lines (`date`) and its jobs' (`data.day`: a failed attempt, a retry).
                (l.includes(`"date":"${ref.day}"`) || l.includes(`"day":"${ref.day}"`)),
            )
            .map((l) => `worker ${i + 1}: ${l.slice(0, 400)}`),
        );
        report.problems.push(
          `${key} was fetched ${n} times; the workers said:\n${said.join('\n') || 'nothing'}`,
        );
      }
    }
    report.problems.push(
      ...(await archiveProblems(await scene.reader(), scene.sim, refs, { at: scene.now() })),
    );
    await scene.closeReaders();
    // The term counts both workers wrote equal a count from scratch.
    if (scene.archive.store === 'sqlite') report.problems.push(...termProblems(scene.dbPath));
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await proxy.close();
    await scene.close();
  }
}

/** No job of the shared queue waits or runs (the delayed ones are the schedulers' next runs). */
async function queueIdle(scene: Scene): Promise<boolean> {
  const queue = new Queue(INGEST_QUEUE, {
    connection: redisOptions({ url: scene.redis.url }),
    prefix: 'fault',
  });
  try {
    const counts = await queue.getJobCounts('wait', 'active', 'prioritized');
    return Object.values(counts).every((n) => n === 0);
  } finally {
    await queue.close();
  }
}
