// Scenario 3: Redis killed (SIGKILL) under a running `edgelog run` in the middle of its catch-up, and
// started again, with its data or empty. The same worker process must recover: the archive ends exact
// without a restart of the worker, the schedulers are there once each, and a SIGINT still stops it.
import { Queue } from 'bullmq';
import { INGEST_QUEUE } from '../../../src/queue/jobs.js';
import { redisOptions } from '../../../src/redis/connection.js';
import { checkDay, invariantProblems, ledgerSettled, type DayRef } from '../lib/archive-check.js';
import { clearOfMidnight, pastDays } from '../lib/clock.js';
import { ProgressProbe } from '../lib/progress.js';
import { faultsFired, recordSecretScan, type ScenarioReport, startReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import { rngFor } from '../lib/seeded.js';
import { sleep, waitFor, WaitTimeout, within } from '../lib/wait.js';

export interface RedisOutageOptions {
  seed: number;
  /** Start Redis again with its data (AOF), or empty. */
  restart: 'with-data' | 'empty';
  entriesPerDay: number;
  pageSize: number;
  /** How long the worker gets to finish the days after Redis is back. @defaultValue 60 s */
  recoverMs?: number;
}

export interface RedisOutageReport extends ScenarioReport {
  /** The worker was still running when Redis came back, and afterwards. */
  workerSurvived: boolean;
  /** The days before today ended exact while the same worker ran. */
  archiveExact: boolean;
  /** The scheduler keys after recovery, sorted (each once when there are no duplicates). */
  schedulers: string[];
  /** Upcoming jobs per scheduler after recovery. */
  upcomingPerScheduler: Record<string, number>;
  /** SIGINT after recovery: exit code and time taken. */
  stop: { code: number | null; ms: number } | undefined;
}

export const WANTED_SCHEDULERS = ['guardian-201', 'maintenance', 'origin-101', 'shield-201'];

export async function redisOutageScenario(opts: RedisOutageOptions): Promise<RedisOutageReport> {
  const rng = rngFor(opts.seed, 'redis', opts.restart);
  const recoverMs = opts.recoverMs ?? 60_000;
  await clearOfMidnight(recoverMs + 60_000);
  const scene = await Scene.open({
    name: `redis-${opts.restart}`,
    seed: opts.seed,
    clock: 'real',
    sim: {
      pullZones: [101],
      shieldZones: [201],
      // Small origin days (one answer each), long Shield days: the kill lands inside the catch-up.
      entriesPerDay: (source) => (source === 'origin' ? 1_000 : opts.entriesPerDay),
      pageSize: opts.pageSize,
      latencyMs: 20,
    },
  });
  const report: RedisOutageReport = {
    ...startReport(`redis-killed-restarted-${opts.restart}`, opts.seed),
    workerSurvived: false,
    archiveExact: false,
    schedulers: [],
    upcomingPerScheduler: {},
    stop: undefined,
  };
  const probe = new ProgressProbe(scene.archive);
  try {
    scene.writeConfig({
      pullZones: [101],
      shieldZones: [201],
      schedule: { finalizeDelay: '0s' },
      // Two jobs at a time: when Redis dies, days are still waiting in the queue, not only running.
      worker: { shutdownTimeout: '3s', concurrency: 2 },
    });
    const days = pastDays(scene.now(), 2);
    const refs: DayRef[] = days.flatMap((day) => [
      { source: 'origin' as const, zone: 101, day },
      { source: 'shield' as const, zone: 201, day },
    ]);
    const worker = scene.start(['run']);
    report.runs++;
    let exited = false;
    void worker.done.then(() => (exited = true));
    // Mid catch-up: a few pages in, well before the days are done.
    const target = rng.int(1, 4) * opts.pageSize;
    await waitFor(
      'the worker to store its first pages',
      async () => ((await probe.entries()) >= target || exited ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const stored = await probe.entries();
    await scene.redis.kill();
    report.kills++;
    report.faults++;
    const down = rng.int(500, 3000);
    await sleep(down);
    await scene.redis.restart({ empty: opts.restart === 'empty' });
    report.notes.push(
      `Redis killed after ${stored} entries were stored, down ${down} ms, restarted ${opts.restart}`,
    );

    const settled = async () => {
      try {
        return await ledgerSettled(await scene.reader(), refs);
      } finally {
        await scene.closeReaders();
      }
    };
    const exact = async () => {
      const db = await scene.reader();
      try {
        for (const r of refs) {
          if ((await checkDay(db, scene.sim, r, { at: scene.now() })).problems.length > 0) return false;
        }
        return true;
      } finally {
        await scene.closeReaders();
      }
    };
    try {
      await waitFor(
        'the days before today to be complete in the ledger',
        async () => ((await settled()) || exited ? true : undefined),
        {
          timeoutMs: recoverMs,
          everyMs: 250,
        },
      );
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
    }
    report.workerSurvived = !exited;
    report.archiveExact = await exact();
    if (!report.workerSurvived)
      report.problems.push(`the worker exited: ${(await worker.done).stderr.slice(-800)}`);
    if (!report.archiveExact) {
      // What stands where: what is missing, the ledger, and what the worker warned about.
      const db = await scene.reader();
      for (const r of refs)
        report.problems.push(...(await checkDay(db, scene.sim, r, { at: scene.now() })).problems);
      const ledger = await db.all(
        'SELECT source, zone_id, log_date, state, pages, archived_entries, lease_owner, next_token IS NOT NULL AS checkpoint, last_error FROM ingest_ledger',
      );
      report.problems.push(`ledger: ${JSON.stringify(ledger)}`);
      await scene.closeReaders();
      const warned = worker
        .output()
        .stderr.split('\n')
        .filter((l) => /"level":(40|50|60)/.test(l));
      report.problems.push(`the worker warned: ${warned.slice(-8).join('\n') || 'nothing'}`);
    }
    await readSchedulers(scene, report);
    if (report.schedulers.join() !== WANTED_SCHEDULERS.join()) {
      report.problems.push(`schedulers after recovery: ${report.schedulers.join(', ') || 'none'}`);
    }
    const duplicated = Object.entries(report.upcomingPerScheduler).filter(([, n]) => n > 1);
    if (duplicated.length > 0)
      report.problems.push(`schedulers with more than one upcoming job: ${JSON.stringify(duplicated)}`);

    if (!exited) {
      const sentAt = Date.now();
      worker.child.kill('SIGINT');
      report.kills++;
      const result = await within(worker.done, 30_000);
      report.stop = { code: result?.code ?? null, ms: Date.now() - sentAt };
      if (result?.code !== 0)
        report.problems.push(`the worker did not stop cleanly on SIGINT: ${JSON.stringify(report.stop)}`);
    }
    report.problems.push(...(await invariantProblems(await scene.reader())));
    await scene.closeReaders();
    report.faults += faultsFired(scene.sim.stats);
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await probe.close();
    await scene.close();
  }
}

async function readSchedulers(scene: Scene, report: RedisOutageReport): Promise<void> {
  const queue = new Queue(INGEST_QUEUE, {
    connection: redisOptions({ url: scene.redis.url }),
    prefix: 'fault',
  });
  try {
    report.schedulers = (await queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();
    for (const job of await queue.getJobs(['wait', 'delayed', 'prioritized'])) {
      if (job.repeatJobKey) {
        report.upcomingPerScheduler[job.repeatJobKey] =
          (report.upcomingPerScheduler[job.repeatJobKey] ?? 0) + 1;
      }
    }
  } finally {
    await queue.close();
  }
}
