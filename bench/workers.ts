// The latency-bound workload worked by `n` `edgelog run` processes sharing one BullMQ queue (one Redis)
// and one PostgreSQL archive, as workers on different hosts would. Each measurement starts from an empty
// database and a fresh queue prefix. The queue is paused while the processes start (each plans every
// zone at its start: the plans wait in the paused queue), and the clock starts when every process's
// worker is connected and the queue is resumed; it stops when the ledger shows every zone-day finished.
// The time from spawning to the end is kept too.
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import pg from 'pg';
import { INGEST_QUEUE } from '../src/queue/jobs.js';
import { redisOptions } from '../src/redis/connection.js';
import { openStore } from '../src/store/open-store.js';
import { busyShare, cpuTimes } from './machine-cpu.js';
import { freshPrefix, startRun, writeBenchConfig, type RunningSim, type RunningWorker } from './processes.js';

export interface WorkersRun {
  workers: number;
  /** From resuming the queue (every worker connected) to the last zone-day finished. */
  wallMs: number;
  /** From spawning the processes to the last zone-day finished (start-up included). */
  fromSpawnMs: number;
  /** Rows archived for the days before today (the same in every run, or the run is wrong). */
  pastDayRows: number;
  /** Share of the machine's CPU busy from resuming to the end (every process, not only edgelog's). */
  machineBusy: number;
}

export interface WorkersOptions {
  workers: number;
  dir: string;
  sim: RunningSim;
  databaseUrl: string;
  shieldZones: number[];
  concurrency: number;
  /** Zone-days `edgelog run` plans at its start: shield zones × (lookback days + today). */
  zoneDays: number;
  today: string;
  timeoutMs?: number;
  /** Called with the run's queue before it is closed (to read its jobs). */
  inspect?: (queue: Queue, resumedAt: number) => Promise<void>;
}

const POLL_MS = 25;

export async function measureWorkers(o: WorkersOptions): Promise<WorkersRun> {
  const prefix = freshPrefix();
  const config = writeBenchConfig(
    {
      dir: o.dir,
      sim: o.sim,
      database: `${o.dir}/unused.db`,
      databaseUrl: o.databaseUrl,
      prefix,
      pullZones: [],
      shieldZones: o.shieldZones,
      concurrency: o.concurrency,
      forRun: true,
    },
    `workers-${o.workers}.config.json`,
  );
  // Migrated before the clock starts: a deployed archive is.
  await (await openStore({ path: '', url: o.databaseUrl })).close();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const queue = new Queue(INGEST_QUEUE, { connection: redisOptions({ url: redisUrl }), prefix });
  queue.on('error', () => {});
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  const workers: RunningWorker[] = [];
  try {
    await queue.pause();
    const spawned = performance.now();
    let exitedEarly: number | null | undefined;
    for (let i = 0; i < o.workers; i++) {
      const w = startRun(config);
      void w.exited.then((code) => (exitedEarly ??= code));
      workers.push(w);
    }
    const deadline = spawned + (o.timeoutMs ?? 300_000);
    const failIfLate = (what: string) => {
      if (exitedEarly !== undefined) throw new Error(`edgelog run exited early with ${exitedEarly}`);
      if (performance.now() > deadline) throw new Error(`${o.workers} worker(s): timed out waiting ${what}`);
    };
    while ((await queue.getWorkers()).length < o.workers) {
      failIfLate('for the workers to connect');
      await sleep(POLL_MS);
    }
    const resumed = performance.now();
    const cpuAtResume = cpuTimes();
    await queue.resume();
    for (;;) {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ingest_ledger
          WHERE source = 'shield' AND finished_at IS NOT NULL
            AND state = CASE WHEN log_date < $1 THEN 'complete' ELSE 'partial' END`,
        [o.today],
      );
      if (Number(rows[0]!.n) >= o.zoneDays) break;
      failIfLate(`for ${o.zoneDays} zone-days (${rows[0]!.n} finished)`);
      await sleep(POLL_MS);
    }
    const end = performance.now();
    const machineBusy = busyShare(cpuAtResume, cpuTimes());
    exitedEarly = undefined;
    const codes = await Promise.all(workers.splice(0).map((w) => w.stop()));
    if (codes.some((c) => c !== 0)) throw new Error(`edgelog run exited with ${codes.join(', ')}`);
    await o.inspect?.(queue, Date.now() - (performance.now() - resumed));
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM shield_event_logs WHERE log_date < $1',
      [o.today],
    );
    return {
      workers: o.workers,
      wallMs: Math.round(end - resumed),
      fromSpawnMs: Math.round(end - spawned),
      pastDayRows: Number(rows[0]!.n),
      machineBusy: Number(machineBusy.toFixed(2)),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await db.end().catch(() => {});
    await queue.close();
  }
}
