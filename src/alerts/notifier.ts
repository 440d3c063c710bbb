// Durable delivery: notices leave the SQLite outbox for a BullMQ queue whose jobs retry with capped
// backoff until the receiver takes them. Job ids are the notices' idempotency keys, so handing the
// same notice over twice (a crash between enqueue and marking it) does not send it twice.
// Deliveries never hold up shutdown: stopping aborts those still in flight after a bound and hands
// their jobs back to the queue (a repeat is deduped by the receiver through Idempotency-Key).
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Dispatcher } from 'undici';
import { retryDecision } from '../api/retry-timing.js';
import type { Config } from '../config/index.js';
import { coerceError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { closeOrDrop, dropWithin, idleFor, IDLE_GRACE_MS } from '../redis/close-or-drop.js';
import { NO_METRICS, type DeliveryMetrics } from '../telemetry/events.js';
import { redisOptions, type RedisTarget } from '../redis/connection.js';
import { waitForJobs } from '../redis/wait-for-jobs.js';
import type { OutboxCursor, OutboxStore } from '../store/store.js';
import { deliver } from './deliver.js';
import { busyHookDelayMs, HookSlots } from './hook-slots.js';
import { groupId, handOver } from './notice-groups.js';
import type { RenderText } from './templates.js';
import type { Notice } from './payload.js';
import { TIMER_MAX_MS } from '../config/index.js';

export const NOTIFY_QUEUE = 'notify';

/** Notices read from the outbox at a time while handing them again. */
const REHAND_PAGE = 500;

/**
 * A notice's job id: its idempotency key (the outbox row's id) and hook. Adding a job under an id the
 * queue holds is a no-op, so a notice handed twice is queued once.
 */
const jobId = (n: { id: string; hook: string }) => `${n.id}-${n.hook}`;

/** The longest stopWorker() takes beyond its drain time: aborted deliveries hand their jobs back. */
export const HAND_BACK_MS = 500;

interface NotifyJob {
  hook: string;
  /** The notice; for a group, its first. */
  notice: Notice;
  /** A group's notices, sent as one (notice-groups.ts); absent for one notice alone. */
  group?: { id: string; notices: Notice[] };
}

const groupJobId = (g: { id: string; hook: string }) => `${g.id}-${g.hook}`;

export interface NotifierDeps {
  redis: RedisTarget;
  prefix: string;
  config: Config;
  /** The outbox only: the notifier hands notices over and records their delivery. */
  repo: OutboxStore<Notice>;
  logger: Logger;
  now: () => number;
  dispatcher?: Dispatcher;
  /** Where the Redis errors of the queue and worker go (the engine's RedisOutage). @defaultValue logged */
  onRedisError?: (client: string, err: Error) => void;
  /** Told how each delivery attempt ended. @defaultValue NO_METRICS */
  metrics?: DeliveryMetrics;
  /** The hooks' templates (templates.ts compileTemplates). @defaultValue none: the default texts */
  templates?: ReadonlyMap<string, RenderText>;
}

interface RunningWorker {
  worker: Worker<NotifyJob>;
  /** Fired when the deliveries in flight must stop (see stopWorker). */
  abort: AbortController;
  stopping?: Promise<void>;
}

export class Notifier {
  readonly queue: Queue<NotifyJob>;
  private running: RunningWorker | undefined;
  private closed = false;
  private events: QueueEvents | undefined;
  private readonly slots = new HookSlots();
  /** Fired by close(): from then on, the queue's lost connections end instead of reconnecting. */
  private readonly closing = new AbortController();
  private readonly log: Logger;
  /** Flushes one at a time in this process (a timer's and an evaluation's may meet). */
  private flushing: Promise<unknown> = Promise.resolve();
  /** Wakes a flush when the earliest open group closes. */
  private groupTimer: NodeJS.Timeout | undefined;
  /** Group jobs added by this process, by the member's notice job id (settleSince finds them). */
  private readonly groupOf = new Map<string, string>();

  constructor(private readonly deps: NotifierDeps) {
    this.log = deps.logger.child({ component: 'notify' });
    const { alerts } = deps.config;
    this.queue = new Queue(NOTIFY_QUEUE, {
      connection: redisOptions(deps.redis, { until: this.closing.signal }),
      prefix: deps.prefix,
      defaultJobOptions: {
        attempts: alerts.deliveryAttempts,
        backoff: { type: 'capped' },
        // Completed jobs stay a week: re-adding a delivered notice's id within that time is a no-op.
        removeOnComplete: { age: 7 * 86_400, count: 10_000 },
        removeOnFail: { age: 30 * 86_400, count: 10_000 },
      },
    });
    this.queue.on('error', (err) => this.redisError('notify queue', err));
  }

  /**
   * Hands every notice never handed to the queue (after each evaluation); returns the jobs added. The
   * notice is marked handed only once its job is in Redis: a process that dies in between leaves it
   * to the next flush, which adds it under the same job id (nothing twice if it did reach Redis).
   * Notices of a group whose window is still open wait for it to close (a timer flushes then), unless
   * `closeAll` (a one-shot command that evaluated everything it will: its groups are complete).
   */
  flushOutbox(opts: { closeAll?: boolean } = {}): Promise<Array<Job<NotifyJob>>> {
    const next = this.flushing.then(() => this.flushOnce(opts.closeAll === true));
    this.flushing = next.catch(() => {});
    return next;
  }

  private async flushOnce(closeAll: boolean): Promise<Array<Job<NotifyJob>>> {
    const now = this.deps.now();
    const { single, groups, nextClose } = handOver(await this.deps.repo.unqueued(), now, closeAll);
    const jobs: Array<Job<NotifyJob>> = [];
    const alone = [...single];
    for (const g of groups) {
      const id = groupJobId(g);
      const notices = g.members.map((m) => m.notice);
      await this.queue.add(
        'notify',
        { hook: g.hook, notice: notices[0]!, group: { id: g.id, notices } },
        { jobId: id },
      );
      // The job under this id may be an earlier hand-over's (a crash, a flush elsewhere, or the same
      // window handed early by a one-shot command): members it does not carry go alone.
      const job = await this.queue.getJob(id);
      const carried = new Set(job?.data.group?.notices.map((n) => n.id) ?? []);
      for (const m of g.members) {
        if (!carried.has(m.id)) {
          alone.push(m);
          continue;
        }
        await this.deps.repo.markEnqueued(m.id, m.hook, this.deps.now());
        this.groupOf.set(jobId(m), id);
      }
      if (job && carried.size > 0) jobs.push(job);
    }
    for (const p of alone) {
      // Its group's job may carry it already (a hand-over that died before marking every member).
      const carrier = await this.groupJobCarrying(p);
      if (carrier) {
        await this.deps.repo.markEnqueued(p.id, p.hook, this.deps.now());
        this.groupOf.set(jobId(p), carrier.id!);
        continue;
      }
      jobs.push(await this.queue.add('notify', { hook: p.hook, notice: p.notice }, { jobId: jobId(p) }));
      await this.deps.repo.markEnqueued(p.id, p.hook, this.deps.now());
    }
    this.armGroupTimer(nextClose, now);
    return jobs;
  }

  /** The job of the notice's group, if the queue holds it and it carries this notice. */
  private async groupJobCarrying(p: {
    id: string;
    hook: string;
    notice: Notice;
  }): Promise<Job<NotifyJob> | undefined> {
    const group = p.notice.group;
    if (!group) return undefined;
    const job = await this.queue.getJob(groupJobId({ id: groupId(group.key), hook: p.hook }));
    return job?.data.group?.notices.some((n) => n.id === p.id) ? job : undefined;
  }

  /** Flushes again when the earliest open group closes (by this process's clock). */
  private armGroupTimer(nextClose: number | null, now: number): void {
    clearTimeout(this.groupTimer);
    this.groupTimer = undefined;
    if (nextClose === null || this.closed) return;
    this.groupTimer = setTimeout(
      () => {
        this.groupTimer = undefined;
        this.flushOutbox().catch((err: unknown) =>
          this.log.warn(
            { err: coerceError(err).message },
            'handing the grouped notices failed; the next evaluation retries',
          ),
        );
      },
      Math.max(50, Math.min(nextClose - now, TIMER_MAX_MS)),
    );
    this.groupTimer.unref();
  }

  /**
   * For when Redis may have lost jobs (`edgelog run`'s start, after an outage, when Redis comes back
   * empty): every notice not delivered and not given up (fewer attempts than `deliveryAttempts`) whose
   * job the queue no longer holds is handed again under the same job id, with the attempts it has left;
   * a notice whose job is still there is left to it. Then the notices never handed (flushOutbox).
   */
  async rehandOutbox(): Promise<{ rehanded: number }> {
    const maxAttempts = this.deps.config.alerts.deliveryAttempts;
    let rehanded = 0;
    let after: OutboxCursor | undefined;
    for (;;) {
      const page = await this.deps.repo.undelivered(maxAttempts, REHAND_PAGE, after);
      for (const p of page) {
        if ((await this.queue.getJob(jobId(p))) || (await this.groupJobCarrying(p))) continue;
        await this.queue.add(
          'notify',
          { hook: p.hook, notice: p.notice },
          { jobId: jobId(p), attempts: maxAttempts - p.attempts },
        );
        await this.deps.repo.markEnqueued(p.id, p.hook, this.deps.now());
        rehanded++;
      }
      if (page.length < REHAND_PAGE) break;
      after = page.at(-1)!.cursor;
    }
    if (rehanded > 0)
      this.log.info({ rehanded }, 'notices not delivered yet whose jobs Redis no longer held: queued again');
    await this.flushOutbox();
    return { rehanded };
  }

  /** Starts delivering in this process (again after stopWorker(); not after close()). */
  startWorker(): void {
    if (this.running || this.closed) return;
    const { alerts } = this.deps.config;
    const policy = {
      attempts: Number.MAX_SAFE_INTEGER,
      baseDelayMs: alerts.retryDelay,
      maxDelayMs: alerts.maxRetryDelay,
      deadlineMs: Number.MAX_SAFE_INTEGER,
    };
    const abort = new AbortController();
    const worker = new Worker<NotifyJob>(
      NOTIFY_QUEUE,
      (job, token, signal) =>
        this.process(job, token, signal ? AbortSignal.any([signal, abort.signal]) : abort.signal),
      {
        connection: redisOptions(this.deps.redis, { until: abort.signal }),
        prefix: this.deps.prefix,
        // A few slots per hook (see hook-slots.ts): a hook that hangs cannot take another hook's.
        concurrency: this.slots.concurrency(Object.keys(alerts.hooks).length),
        settings: {
          // Capped exponential backoff with jitter: a receiver down for hours is retried every maxRetryDelay.
          backoffStrategy: (attemptsMade: number) => {
            const d = retryDecision(policy, { attempt: attemptsMade, elapsedMs: 0, random: Math.random() });
            return d.retry ? d.delayMs : alerts.maxRetryDelay;
          },
        },
      },
    );
    this.running = { worker, abort };
    worker.on('error', (err) => this.redisError('notify worker', err));
    worker.on('failed', (job, err) => {
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
  ): Promise<{ delivered: number; pending: number; deliveredIds: string[] }> {
    if (jobs.length === 0) return { delivered: 0, pending: 0, deliveredIds: [] };
    if (!this.events) {
      this.events = new QueueEvents(NOTIFY_QUEUE, {
        connection: redisOptions(this.deps.redis, { until: this.closing.signal }),
        prefix: this.deps.prefix,
      });
      this.events.on('error', (err) => this.redisError('notify events', err));
    }
    const outcomes = await waitForJobs(this.queue, this.events, jobs, {
      settleOnFailedAttempt: true,
      timeoutMs,
    });
    const deliveredIds = jobs.filter((_, i) => outcomes[i]!.result !== undefined).map((j) => j.id!);
    return { delivered: deliveredIds.length, pending: jobs.length - deliveredIds.length, deliveredIds };
  }

  /** settle() for the notices put in the outbox since `sinceMs` by any process. */
  async settleSince(sinceMs: number, timeoutMs: number): Promise<{ delivered: number; pending: number }> {
    const ids = await this.deps.repo.createdSince(sinceMs);
    // A notice handed in a group settles with its group's job (one job for several notices).
    const jobIds = ids.map((n) => this.groupOf.get(jobId(n)) ?? jobId(n));
    const unique = [...new Set(jobIds)];
    const jobs = (await Promise.all(unique.map((id) => this.queue.getJob(id)))).filter(
      (j): j is Job<NotifyJob> => j !== undefined,
    );
    if (jobs.length === 0) return { delivered: 0, pending: ids.length };
    const result = await this.settle(jobs, timeoutMs);
    const done = new Set(result.deliveredIds);
    const delivered = jobIds.filter((id) => done.has(id)).length;
    return { delivered, pending: ids.length - delivered };
  }

  /**
   * Stops delivering in this process. Deliveries in flight get `drainMs` to finish; those still going
   * are then aborted and their jobs go back to the queue without using an attempt, which takes at most
   * HAND_BACK_MS more. While a stop is under way, further calls wait for it (its `drainMs` counts).
   */
  stopWorker(drainMs: number): Promise<void> {
    const running = this.running;
    if (!running) return Promise.resolve();
    running.stopping ??= this.stop(running, drainMs).finally(() => {
      if (this.running === running) this.running = undefined;
    });
    return running.stopping;
  }

  /** Stops the worker (see stopWorker), then closes the queue. */
  async close(drainMs = 0): Promise<void> {
    this.closed = true;
    clearTimeout(this.groupTimer);
    await this.stopWorker(drainMs);
    this.closing.abort();
    // Bounded: Redis may be away.
    await Promise.all([this.events && closeOrDrop(this.events), closeOrDrop(this.queue)]);
  }

  private async stop({ worker, abort }: RunningWorker, drainMs: number): Promise<void> {
    // close() stops fetching and resolves once the jobs in hand are done. BullMQ's close(true) after
    // close() returns that same promise, so it cannot cut the wait short: aborting the deliveries does.
    let closed = false;
    const closing = worker.close().then(
      () => (closed = true),
      () => (closed = true),
    );
    // With no delivery in hand, what close() still waits for is Redis, which may be away: not for long.
    const idle = new AbortController();
    const handsFree = idleFor(() => Object.keys(this.slots.busy()).length === 0, IDLE_GRACE_MS, idle.signal);
    await within(Promise.race([closing, handsFree]), drainMs);
    idle.abort();
    if (closed) return;
    const inFlight = this.slots.busy();
    if (Object.keys(inFlight).length > 0) {
      this.log.warn(
        { drainMs, inFlight },
        'deliveries still in flight: stopping them, their notices stay queued',
      );
    }
    abort.abort(new Error('shutting down'));
    if (await within(closing, HAND_BACK_MS)) return;
    this.log.warn({ timeoutMs: HAND_BACK_MS }, 'the delivery worker did not stop in time; disconnecting it');
    await dropWithin(worker, HAND_BACK_MS);
  }

  /** `stop` is fired by stopWorker() (or by BullMQ when the job's lock is lost). */
  private async process(job: Job<NotifyJob>, token: string | undefined, stop: AbortSignal): Promise<number> {
    const { hook, notice, group } = job.data;
    const members = group?.notices ?? [notice];
    const config = this.deps.config.alerts.hooks[hook];
    if (!config) throw new UnrecoverableError(`hook "${hook}" is not configured (alerts.hooks)`);
    if (!this.slots.tryTake(hook)) return this.putBack(job, token, busyHookDelayMs(Math.random()));
    try {
      // A job handed again (rehandOutbox) while its first one was still delivering: sent once already.
      if (await this.allDelivered(members, hook)) {
        this.log.info({ notice: group?.id ?? notice.id, hook }, 'notice delivered already: not sent again');
        return 0;
      }
      const delivery = group ? { key: group.id, notices: group.notices } : notice;
      const status = await deliver(hook, config, delivery, {
        dispatcher: this.deps.dispatcher,
        signal: stop,
        render: this.deps.templates?.get(hook),
      });
      for (const m of members) await this.deps.repo.markAttempt(m.id, hook, this.deps.now(), null);
      (this.deps.metrics ?? NO_METRICS).delivery(hook, 'delivered');
      this.log.info(
        group
          ? { notice: group.id, hook, rule: notice.rule, notices: members.length }
          : { notice: notice.id, hook, status: notice.status, rule: notice.rule, zone: notice.zone },
        'notice delivered',
      );
      return status;
    } catch (err) {
      // Stopped by shutdown, not failed by the receiver: back to the queue at once, no attempt used.
      if (stop.aborted) return this.putBack(job, token, 0);
      const message = coerceError(err).message;
      for (const m of members) await this.deps.repo.markAttempt(m.id, hook, this.deps.now(), message);
      const last = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      (this.deps.metrics ?? NO_METRICS).delivery(hook, last ? 'abandoned' : 'failed');
      throw err;
    } finally {
      this.slots.release(hook);
    }
  }

  private async allDelivered(members: readonly Notice[], hook: string): Promise<boolean> {
    for (const m of members) if (!(await this.deps.repo.delivered(m.id, hook))) return false;
    return true;
  }

  private redisError(client: string, raw: unknown): void {
    const err = coerceError(raw);
    if (this.deps.onRedisError) this.deps.onRedisError(client, err);
    else this.log.error({ err: err.message }, `${client} error`);
  }

  /** Returns the job to the queue after `delayMs` without using an attempt (BullMQ's manual delay). */
  private async putBack(job: Job<NotifyJob>, token: string | undefined, delayMs: number): Promise<never> {
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  }
}

/** True when `done` settles within `ms`; the timer does not keep the process alive past that. */
async function within(done: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([done.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
