// The BullMQ side: the ingest queue, its schedulers, a worker running the handlers, and a clean stop.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { EdgelogError, coerceError, describeError } from '../errors/index.js';
import { ownerId, type DayResult } from '../ingest/day-ingestor.js';
import { redactError } from '../redact.js';
import { InterruptedError, LeaseBusyError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { asStoreError } from '../store/store-error.js';
import { closeOrDrop, dropWithin, idleFor, IDLE_GRACE_MS } from '../redis/close-or-drop.js';
import { countDayJob } from '../telemetry/day-outcome.js';
import { NO_METRICS, type DayJobMetrics } from '../telemetry/events.js';
import { redisOptions, type RedisTarget } from '../redis/connection.js';
import {
  runDay,
  runGuardian,
  runMaintenance,
  runPlan,
  scheduledDayJobOptions,
  type HandlerDeps,
} from './handlers.js';
import {
  compactDedupId,
  HISTORY_SWEEP_ID,
  INGEST_QUEUE,
  syncJobId,
  type CompactJob,
  type DayJob,
  type GuardianJob,
  type JobData,
  type PlanJob,
} from './jobs.js';
import { planSchedulers, wantedSchedulers, type SchedulerPlan } from './schedules.js';
import { waitForJobs, type JobOutcome } from '../redis/wait-for-jobs.js';

export type { JobOutcome };

export interface RuntimeOptions {
  redis: RedisTarget;
  /** Redis key prefix (config redis.prefix). */
  prefix: string;
  handlers: Omit<HandlerDeps, 'enqueueDays'>;
  /**
   * The queue. The shared ingest queue for `edgelog run`; `edgelog sync` works a private one of its own,
   * so that it does the days it was asked for and nothing else. @defaultValue INGEST_QUEUE
   */
  queueName?: string;
  /** Called when discard() begins. */
  onDiscard?: () => void;
  /**
   * Where the Redis errors of the queue and the worker go (`client` says whose): the engine's
   * RedisOutage, which logs an outage once instead of every retry. @defaultValue each one logged
   */
  onRedisError?: (client: string, err: Error) => void;
  /** Told how each day job ended. @defaultValue NO_METRICS */
  metrics?: DayJobMetrics;
}

export class IngestRuntime {
  readonly queue: Queue<JobData, unknown, string>;
  private worker: Worker<JobData, unknown, string> | undefined;
  private events: QueueEvents | undefined;
  private readonly shutdown = new AbortController();
  private readonly deps: HandlerDeps;
  private readonly log: Logger;
  private readonly queueName: string;
  /** Jobs whose work (not yet their report to Redis) is under way in this process. */
  private working = 0;

  constructor(private readonly opts: RuntimeOptions) {
    const { config } = opts.handlers;
    this.log = opts.handlers.logger.child({ component: 'queue' });
    this.queueName = opts.queueName ?? INGEST_QUEUE;
    this.queue = new Queue(this.queueName, {
      connection: redisOptions(opts.redis, { until: this.shutdown.signal }),
      prefix: opts.prefix,
      defaultJobOptions: {
        attempts: config.worker.jobAttempts,
        backoff: { type: 'exponential', delay: 5_000 },
        removeOnComplete: {
          age: Math.ceil(config.worker.keepCompleted.age / 1000),
          count: config.worker.keepCompleted.count,
        },
        removeOnFail: {
          age: Math.ceil(config.worker.keepFailed.age / 1000),
          count: config.worker.keepFailed.count,
        },
      },
    });
    this.queue.on('error', (err) => this.redisError('queue', err));
    this.deps = { ...opts.handlers, enqueueDays: (jobs) => this.enqueueScheduledDays(jobs) };
  }

  /** Makes Redis hold exactly one scheduler per configured (source, zone); one process at a time. */
  async reconcileSchedulers(): Promise<SchedulerPlan> {
    return this.withLock('reconcile', async () => {
      const existing = await this.queue.getJobSchedulers(0, -1);
      const plan = planSchedulers(wantedSchedulers(this.deps.config), existing);
      for (const w of plan.upsert) {
        await this.queue.upsertJobScheduler(w.id, w.repeat, { name: w.template.name, data: w.template.data });
      }
      for (const id of plan.remove) await this.queue.removeJobScheduler(id);
      this.log.info(
        { upserted: plan.upsert.map((w) => w.id), removed: plan.remove, unchanged: plan.keep.length },
        'schedulers reconciled',
      );
      return plan;
    });
  }

  /** When the next scheduled pass over a zone is due (ms), or null when none is scheduled. */
  async nextPlanAt(): Promise<number | null> {
    const due = (await this.queue.getJobSchedulers(0, -1))
      .filter((s) => s.name === 'plan' && s.next !== undefined)
      .map((s) => s.next!);
    return due.length === 0 ? null : Math.min(...due);
  }

  /**
   * Puts into Redis what `edgelog run` needs there: the schedulers, and a plan per zone (from the ledger).
   * At start, and again whenever Redis comes back from an outage or without its data (redis-watch.ts).
   */
  async replan(): Promise<void> {
    await this.reconcileSchedulers();
    await this.catchUp();
  }

  /** Schedulers do not backfill missed runs: plan every zone now, from the ledger. */
  async catchUp(): Promise<void> {
    const { pullZones, shieldZones } = this.deps.config;
    const plans: PlanJob[] = [
      ...pullZones.map((z) => ({ source: 'origin' as const, zone: z.id })),
      ...shieldZones.map((z) => ({ source: 'shield' as const, zone: z.id })),
    ];
    await this.queue.addBulk(
      plans.map((data) => ({
        name: 'plan',
        data,
        opts: { deduplication: { id: `plan-${data.source}-${data.zone}` } },
      })),
    );
    await this.queue.addBulk(
      shieldZones.map((z) => ({
        name: 'guardian',
        data: { zone: z.id },
        opts: { deduplication: { id: `guardian-${z.id}` } },
      })),
    );
  }

  /** Starts processing jobs in this process. */
  startWorker(concurrency = this.deps.config.worker.concurrency): void {
    if (this.worker) return;
    this.worker = new Worker(this.queueName, (job, token, signal) => this.process(job, token, signal), {
      connection: redisOptions(this.opts.redis, { until: this.shutdown.signal }),
      prefix: this.opts.prefix,
      concurrency,
      // Each page is one short transaction, so a lock of half the day's lease (30 s by default) is
      // ample; a stalled job re-runs from its checkpoint once the day's lease has run out too.
      lockDuration: Math.floor(this.deps.config.worker.lease / 2),
      stalledInterval: Math.floor(this.deps.config.worker.lease / 2),
      maxStalledCount: 2,
    });
    this.worker.on('error', (err) => this.redisError('worker', err));
    this.worker.on('failed', (job, err) => {
      this.log.warn({ jobId: job?.id, name: job?.name, data: job?.data, err: err.message }, 'job failed');
    });
  }

  /** Adds the days `edgelog sync` asked for, with ids of their own (the ledger lease serialises them). */
  async enqueueSync(
    jobs: DayJob[],
    runId = randomUUID().slice(0, 8),
  ): Promise<Array<Job<JobData, unknown, string>>> {
    return this.queue.addBulk(
      jobs.map((data) => ({ name: 'day', data, opts: { jobId: syncJobId(runId, data) } })),
    );
  }

  async enqueueGuardian(
    zones: number[],
    runId = randomUUID().slice(0, 8),
  ): Promise<Array<Job<JobData, unknown, string>>> {
    return this.queue.addBulk(
      zones.map((zone) => ({
        name: 'guardian',
        data: { zone } satisfies GuardianJob,
        opts: { jobId: `sync-${runId}-guardian-${zone}` },
      })),
    );
  }

  /**
   * Waits until every job has completed or failed for good (see waitForJobs). When `signal` fires, stops
   * waiting at once; the unfinished jobs come back `pending`.
   */
  async waitFor<R>(
    jobs: Array<Job<JobData, unknown, string>>,
    signal?: AbortSignal,
    onSettled?: (outcome: JobOutcome) => void,
  ): Promise<Array<JobOutcome<R>>> {
    if (jobs.length === 0) return [];
    if (!this.events) {
      this.events = new QueueEvents(this.queueName, {
        connection: redisOptions(this.opts.redis, { until: this.shutdown.signal }),
        prefix: this.opts.prefix,
      });
      this.events.on('error', (err) => this.redisError('queue events', err));
    }
    return waitForJobs<JobData, R>(this.queue, this.events, jobs, {
      ...(signal ? { signal } : {}),
      ...(onSettled ? { onSettled } : {}),
    });
  }

  /**
   * Stops taking jobs; jobs in hand stop after their current page (checkpoint saved) and go back to the
   * queue. Waits at most `timeoutMs`, then forces the worker closed.
   */
  async close(timeoutMs = this.deps.config.worker.shutdownTimeout): Promise<void> {
    this.shutdown.abort(new Error('shutting down'));
    await this.closeWorker(timeoutMs);
    await Promise.all([this.events && closeOrDrop(this.events), closeOrDrop(this.queue)]);
  }

  private async closeWorker(timeoutMs: number): Promise<void> {
    if (!this.worker) return;
    const closing = this.worker.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    );
    const timer = new AbortController(); // the waits below do not outlive the race
    const ended = await Promise.race([
      closing,
      idleFor(() => this.working === 0, IDLE_GRACE_MS, timer.signal).then(() => 'idle' as const),
      sleep(timeoutMs, 'late' as const, { signal: timer.signal }).catch(() => 'late' as const),
    ]);
    timer.abort();
    if (ended === 'closed') return;
    if (ended === 'late')
      this.log.warn({ timeoutMs }, 'jobs did not stop in time; forcing the worker closed');
    else this.log.warn('the worker did not finish closing (is Redis away?); dropping its connections');
    // close(true) after close() is the same wait: dropping the connections ends it.
    await dropWithin(this.worker);
  }

  /** close(), after removing every key of this runtime's queue from Redis (a private queue, once done). */
  async discard(timeoutMs = this.deps.config.worker.shutdownTimeout): Promise<void> {
    this.opts.onDiscard?.();
    this.shutdown.abort(new Error('shutting down'));
    try {
      await this.closeWorker(timeoutMs);
      await this.queue.obliterate({ force: true });
    } catch (err) {
      this.log.warn({ err: coerceError(err).message, queue: this.queueName }, 'could not remove the queue');
    }
    await this.close(0);
  }

  private async enqueueHistory(name: 'compact' | 'history', data: JobData, id: string): Promise<void> {
    await this.queue.add(name, data, { deduplication: { id } });
  }

  private async enqueueScheduledDays(jobs: DayJob[]): Promise<void> {
    await this.queue.addBulk(jobs.map((data) => ({ name: 'day', data, opts: scheduledDayJobOptions(data) })));
  }

  private async process(
    job: Job<JobData, unknown, string>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const jobSignal = signal ? AbortSignal.any([signal, this.shutdown.signal]) : this.shutdown.signal;
    // `working` counts jobs whose work is under way; telling Redis how it ended comes after (see close).
    let failure: { err: unknown } | undefined;
    let value: unknown;
    this.working++;
    try {
      value = await this.work(job, jobSignal);
    } catch (err) {
      failure = { err };
    } finally {
      this.working--;
    }
    return failure ? this.onError(coerceError(failure.err), job, token) : value;
  }

  private async work(job: Job<JobData, unknown, string>, jobSignal: AbortSignal): Promise<unknown> {
    switch (job.name) {
      case 'plan': {
        const planned = await runPlan(this.deps, job.data as PlanJob);
        // The history's periodic sweep rides on the plans (one at a time, whoever enqueues it).
        if (this.deps.history) await this.enqueueHistory('history', {}, HISTORY_SWEEP_ID);
        return planned;
      }
      case 'day': {
        const day = job.data as DayJob;
        const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        const result = await countDayJob(this.opts.metrics ?? NO_METRICS, day.source, finalAttempt, () =>
          runDay(this.deps, day, {
            owner: ownerId(`job-${job.id}`),
            signal: jobSignal,
            finalAttempt,
            enqueuedAt: job.timestamp,
          }),
        );
        // A day that settled goes into history now (the job checks it is settled; the sweep finds the
        // days that settle by leaving the API's window).
        if (this.deps.history && result.state === 'complete' && !result.skipped) {
          const data: CompactJob = { source: result.source, zone: result.zone, day: result.day };
          await this.enqueueHistory('compact', data, compactDedupId(data));
        }
        return result;
      }
      case 'compact':
        return await this.deps.history!.compact(job.data as CompactJob);
      case 'history': {
        const days = await this.deps.history!.plan();
        for (const d of days) {
          const data: CompactJob = { source: d.source, zone: d.zone, day: d.day };
          await this.enqueueHistory('compact', data, compactDedupId(data));
        }
        return { enqueued: days.length };
      }
      case 'guardian':
        return await runGuardian(this.deps, job.data as GuardianJob, jobSignal);
      case 'maintenance':
        return await runMaintenance(this.deps);
      case 'alerts':
        return await this.deps.evaluateAlerts?.();
      default:
        throw new UnrecoverableError(`unknown job name "${job.name}"`);
    }
  }

  /** Sorts a failure: wait and retry without using an attempt, retry with backoff, or fail for good. */
  private async onError(raw: Error, job: Job<JobData, unknown, string>, token?: string): Promise<never> {
    // Any job's write to the archive (a guardian snapshot, alert state) may meet a full disk too.
    const err = asStoreError(raw, this.deps.store.location);
    if (err instanceof LeaseBusyError || err instanceof InterruptedError) {
      // Not a failure of this job: give the day back to the queue (shortly, or at once on shutdown).
      const delay = err instanceof LeaseBusyError ? 1_000 + Math.floor(Math.random() * 1_000) : 0;
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
    // BullMQ keeps the message and stack in Redis (failedReason): no secret may be in them.
    if (err instanceof UnrecoverableError) throw redactError(err);
    if (err instanceof EdgelogError && !err.retryable)
      throw redactError(new UnrecoverableError(describeError(err)));
    throw redactError(err);
  }

  private redisError(client: string, raw: unknown): void {
    const err = coerceError(raw);
    if (this.opts.onRedisError) this.opts.onRedisError(client, err);
    else this.log.error({ err: err.message }, `${client} error`);
  }

  private async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = new Redis({ ...redisOptions(this.opts.redis), maxRetriesPerRequest: 3 });
    client.on('error', () => {});
    const key = `${this.opts.prefix}:edgelog:lock:${name}`;
    const me = randomUUID();
    try {
      for (let waited = 0; ; waited += 200) {
        if ((await client.set(key, me, 'PX', 30_000, 'NX')) === 'OK') break;
        if (waited > 30_000) throw new EdgelogError(`could not take the ${name} lock in Redis within 30 s`);
        await sleep(200);
      }
      try {
        return await fn();
      } finally {
        await client.eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end",
          1,
          key,
          me,
        );
      }
    } finally {
      client.disconnect();
    }
  }
}

export type { DayResult };
