// Durable delivery: notices leave the SQLite outbox for a BullMQ queue whose jobs retry with capped
// backoff until the receiver takes them. Job ids are the notices' idempotency keys, so handing the
// same notice over twice (a crash between enqueue and marking it) does not send it twice.
import { Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Dispatcher } from 'undici';
import { retryDecision } from '../api/retry-timing.js';
import type { Config } from '../config/index.js';
import { coerceError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { redisOptions, type RedisTarget } from '../redis/connection.js';
import { waitForJobs } from '../redis/wait-for-jobs.js';
import type { AlertsRepository } from './alerts.repository.js';
import { deliver } from './deliver.js';
import type { Notice } from './payload.js';

export const NOTIFY_QUEUE = 'notify';

interface NotifyJob {
  hook: string;
  notice: Notice;
}

export interface NotifierDeps {
  redis: RedisTarget;
  prefix: string;
  config: Config;
  repo: AlertsRepository;
  logger: Logger;
  now: () => number;
  dispatcher?: Dispatcher;
}

export class Notifier {
  readonly queue: Queue<NotifyJob>;
  private worker: Worker<NotifyJob> | undefined;
  private events: QueueEvents | undefined;
  private readonly log: Logger;

  constructor(private readonly deps: NotifierDeps) {
    this.log = deps.logger.child({ component: 'notify' });
    const { alerts } = deps.config;
    this.queue = new Queue(NOTIFY_QUEUE, {
      connection: redisOptions(deps.redis),
      prefix: deps.prefix,
      defaultJobOptions: {
        attempts: alerts.deliveryAttempts,
        backoff: { type: 'capped' },
        // Completed jobs stay a week: re-adding a delivered notice's id within that time is a no-op.
        removeOnComplete: { age: 7 * 86_400, count: 10_000 },
        removeOnFail: { age: 30 * 86_400, count: 10_000 },
      },
    });
    this.queue.on('error', (err) => this.log.error({ err: coerceError(err).message }, 'notify queue error'));
  }

  /** Hands every notice still in the outbox to the queue; returns the jobs added. */
  async flushOutbox(): Promise<Array<Job<NotifyJob>>> {
    const pending = this.deps.repo.unqueued();
    const jobs: Array<Job<NotifyJob>> = [];
    for (const p of pending) {
      jobs.push(
        await this.queue.add(
          'notify',
          { hook: p.hook, notice: p.notice },
          { jobId: `${p.notice.id}-${p.hook}` },
        ),
      );
      this.deps.repo.markEnqueued(p.id, p.hook, this.deps.now());
    }
    return jobs;
  }

  startWorker(): void {
    if (this.worker) return;
    const { alerts } = this.deps.config;
    const policy = {
      attempts: Number.MAX_SAFE_INTEGER,
      baseDelayMs: alerts.retryDelay,
      maxDelayMs: alerts.maxRetryDelay,
      deadlineMs: Number.MAX_SAFE_INTEGER,
    };
    this.worker = new Worker<NotifyJob>(NOTIFY_QUEUE, (job) => this.process(job), {
      connection: redisOptions(this.deps.redis),
      prefix: this.deps.prefix,
      concurrency: 4,
      settings: {
        // Capped exponential backoff with jitter: a receiver down for hours is retried every maxRetryDelay.
        backoffStrategy: (attemptsMade: number) => {
          const d = retryDecision(policy, { attempt: attemptsMade, elapsedMs: 0, random: Math.random() });
          return d.retry ? d.delayMs : alerts.maxRetryDelay;
        },
      },
    });
    this.worker.on('error', (err) =>
      this.log.error({ err: coerceError(err).message }, 'notify worker error'),
    );
    this.worker.on('failed', (job, err) => {
      this.log.warn(
        { notice: job?.data.notice.id, hook: job?.data.hook, attempt: job?.attemptsMade, err: err.message },
        'notice not delivered yet',
      );
    });
  }

  /**
   * Waits until each job is delivered, or has failed at least once (it then stays queued for
   * `edgelog run`), or `timeoutMs` passes. Returns how many were delivered.
   */
  async settle(
    jobs: Array<Job<NotifyJob>>,
    timeoutMs: number,
  ): Promise<{ delivered: number; pending: number }> {
    if (jobs.length === 0) return { delivered: 0, pending: 0 };
    this.events ??= new QueueEvents(NOTIFY_QUEUE, {
      connection: redisOptions(this.deps.redis),
      prefix: this.deps.prefix,
    });
    const outcomes = await waitForJobs(this.queue, this.events, jobs, {
      settleOnFailedAttempt: true,
      timeoutMs,
    });
    const delivered = outcomes.filter((o) => o.result !== undefined).length;
    return { delivered, pending: jobs.length - delivered };
  }

  /** settle() for the notices put in the outbox since `sinceMs` by any process. */
  async settleSince(sinceMs: number, timeoutMs: number): Promise<{ delivered: number; pending: number }> {
    const ids = this.deps.repo.createdSince(sinceMs);
    const jobs = (await Promise.all(ids.map((n) => this.queue.getJob(`${n.id}-${n.hook}`)))).filter(
      (j): j is Job<NotifyJob> => j !== undefined,
    );
    const result = await this.settle(jobs, timeoutMs);
    return { delivered: result.delivered, pending: ids.length - result.delivered };
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.events?.close();
    await this.queue.close();
  }

  private async process(job: Job<NotifyJob>): Promise<number> {
    const { hook, notice } = job.data;
    const config = this.deps.config.alerts.hooks[hook];
    if (!config) throw new UnrecoverableError(`hook "${hook}" is not configured (alerts.hooks)`);
    try {
      const status = await deliver(hook, config, notice, this.deps.dispatcher);
      this.deps.repo.markAttempt(notice.id, hook, this.deps.now(), null);
      this.log.info(
        { notice: notice.id, hook, status: notice.status, rule: notice.rule, zone: notice.zone },
        'notice delivered',
      );
      return status;
    } catch (err) {
      this.deps.repo.markAttempt(notice.id, hook, this.deps.now(), coerceError(err).message);
      throw err;
    }
  }
}
