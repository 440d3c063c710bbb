// waitForJobs against a real Redis and BullMQ. BullMQ counts every finished attempt in attemptsMade, the
// successful one too: a job read active, whose hash is read just after it completed, looked like a failed
// attempt, and a delivered notice was reported undelivered (`delivered: 0` in
// test/integration/alerts.test.ts, twice in full runs).
import { randomUUID } from 'node:crypto';
import { Job, Queue, QueueEvents, Worker, type Processor } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/redis/connection.js';
import { waitForJobs } from '../../src/redis/wait-for-jobs.js';
import { redisUrl } from '../support/harness.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A queue of its own (random prefix), its events, and a worker running `processor`. */
function queueOf(processor: Processor<{ n: number }, string>) {
  const connection = redisOptions({ url: redisUrl() });
  const prefix = `wfj-${randomUUID().slice(0, 8)}`;
  const queue = new Queue<{ n: number }, string>('jobs', { connection, prefix });
  const events = new QueueEvents('jobs', { connection, prefix });
  const worker = new Worker<{ n: number }, string>('jobs', processor, { connection, prefix });
  closers.push(async () => {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });
  return { queue, events, worker };
}

describe('waitForJobs, settling on a failed attempt', () => {
  it('a job that completes between the reads of its state and of its hash is completed', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { queue, events, worker } = queueOf(async () => {
      await held;
      return 'done';
    });
    const job = await queue.add('one', { n: 1 }, { attempts: 3 });
    await expect.poll(() => queue.getJobState(job.id!), { timeout: 5_000 }).toBe('active');
    const completed = new Promise<void>((r) => worker.once('completed', () => r()));
    // The first read of the state sees the job active; it completes before its hash is read.
    let raced = false;
    const racing = new Proxy(queue, {
      get(target, prop, receiver) {
        if (prop !== 'getJobState') return Reflect.get(target, prop, receiver) as unknown;
        return async (id: string) => {
          const state = await target.getJobState(id);
          if (!raced && state === 'active') {
            raced = true;
            release();
            await completed;
          }
          return state;
        };
      },
    });
    const [outcome] = await waitForJobs<{ n: number }, string>(racing, events, [job], {
      settleOnFailedAttempt: true,
      timeoutMs: 10_000,
    });
    expect(raced).toBe(true);
    expect((await Job.fromId(queue, job.id!))?.attemptsMade).toBe(1);
    expect(outcome).toEqual({ id: job.id, data: { n: 1 }, result: 'done' });
  });

  it('a job whose first attempt failed settles as failed, its retry left queued', async () => {
    const { queue, events } = queueOf(() => {
      throw new Error('receiver down');
    });
    const job = await queue.add('two', { n: 2 }, { attempts: 3, backoff: { type: 'fixed', delay: 60_000 } });
    const [outcome] = await waitForJobs<{ n: number }, string>(queue, events, [job], {
      settleOnFailedAttempt: true,
      timeoutMs: 10_000,
    });
    expect(outcome).toEqual({ id: job.id, data: { n: 2 }, error: 'receiver down' });
    expect(await queue.getJobState(job.id!)).toBe('delayed');
  });
});
