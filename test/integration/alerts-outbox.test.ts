// The alert outbox against crashes and Redis losing its data, on each store, with the real queue and a
// webhook receiver on loopback: a notice committed to the outbox is delivered exactly once whatever
// happens between that commit and its delivery.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it, vi } from 'vitest';
import type { Notice } from '../../src/alerts/payload.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import { deleteKeys, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';

const T0 = Date.parse('2026-11-22T12:00:00Z');

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
  await receiver?.close();
  receiver = undefined;
});

function alertConfig(url: string): ConfigInput {
  return {
    pullZones: [],
    shieldZones: [],
    alerts: { hooks: { ops: { type: 'webhook', url } }, retryDelay: '100ms', maxRetryDelay: '300ms' },
  };
}

/** A rule's transition and its notice committed to the outbox, as the evaluator commits them. */
async function commitNotice(engine: Engine, id: string): Promise<Notice> {
  const notice: Notice = {
    id,
    rule: 'stale',
    ruleType: 'flatline',
    source: 'origin',
    zone: 101,
    status: 'firing',
    startsAt: T0,
    endsAt: null,
    severity: undefined,
    summary: 'no successful origin ingestion for 2h',
    details: {},
    fingerprint: 'fp',
  };
  const key = { rule: 'stale', zone: 101, source: 'origin', fingerprint: 'fp' };
  const to = { state: 'firing' as const, since: T0, lastNotifiedAt: T0, firstEvaluatedAt: T0 };
  const measured = { value: 1, threshold: 0, detail: {} };
  expect(await engine.alerts.repo.save(key, undefined, to, measured, [{ hook: 'ops', notice }], T0)).toBe(
    true,
  );
  return notice;
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until the outbox records the notice delivered and the queue has nothing left, then counts. */
async function deliveredOnce(engine: Engine, r: Receiver, id: string): Promise<void> {
  await until('the delivery recorded', async () => {
    const row = (await engine.alerts.repo.notifications()).find((n) => n.id === id);
    return row?.delivered_at != null ? row : undefined;
  });
  // Any second job for it would be worked before the queue is empty.
  await until('the queue empty', async () => {
    const counts = await engine.alerts.notifier.queue.getJobCounts('waiting', 'delayed', 'active');
    return Object.values(counts).every((n) => n === 0) ? true : undefined;
  });
  expect(r.received.map((x) => x.headers['idempotency-key'])).toEqual([id]);
}

describeStores('the alert outbox', (store) => {
  it('a process that dies between the outbox commit and the enqueue: the next flush delivers the notice once', async () => {
    receiver = await startReceiver();
    h = await storeHarness(store);
    const first = await h.engine(alertConfig(receiver.url), () => T0);
    await commitNotice(first, 'n-crash');
    // The process dies at the enqueue: nothing reaches Redis, and nothing after it runs.
    vi.spyOn(first.alerts.notifier.queue, 'add').mockRejectedValueOnce(new Error('killed at queue.add'));
    await expect(first.alerts.notifier.flushOutbox()).rejects.toThrow('killed at queue.add');
    expect(await first.alerts.notifier.queue.getJob('n-crash-ops')).toBeUndefined();
    await first.close();

    // The next process (a sync, an alerts check, or run) hands the outbox to the queue after evaluating.
    const next = await h.engine(alertConfig(receiver.url), () => T0 + 1_000);
    await next.alerts.check();
    next.alerts.notifier.startWorker();
    await deliveredOnce(next, receiver, 'n-crash');
    // And handing the outbox over again adds nothing.
    expect(await next.alerts.notifier.flushOutbox()).toEqual([]);
    expect(await next.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 0 });
  });

  it('Redis restarted empty with a notice queued but not delivered: the restore hands it again, once', async () => {
    receiver = await startReceiver();
    h = await storeHarness(store);
    const first = await h.engine(alertConfig(receiver.url), () => T0);
    await commitNotice(first, 'n-lost');
    expect(await first.alerts.notifier.flushOutbox()).toHaveLength(1);
    await first.close();
    // Redis loses every key of this worker (restarted without persistence, flushed, a fresh replica).
    await deleteKeys(h.prefix);

    const next = await h.engine(alertConfig(receiver.url), () => T0 + 1_000);
    // Nothing to flush: the notice was handed to the queue once; only its job is gone.
    expect(await next.alerts.notifier.flushOutbox()).toEqual([]);
    expect(await next.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 1 });
    // Its job is there again: a second restore (the next outage) leaves it as it is.
    expect(await next.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 0 });
    next.alerts.notifier.startWorker();
    await deliveredOnce(next, receiver, 'n-lost');
    expect(await next.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 0 });
  });

  it('a job handed again for a notice delivered meanwhile by its first job sends nothing', async () => {
    receiver = await startReceiver();
    h = await storeHarness(store);
    const engine = await h.engine(alertConfig(receiver.url), () => T0);
    await commitNotice(engine, 'n-twice');
    expect(await engine.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 1 });
    // The first job's delivery lands now (its worker was still sending when Redis lost the job).
    await engine.alerts.repo.markAttempt('n-twice', 'ops', T0 + 500, null);
    engine.alerts.notifier.startWorker();
    const job = await engine.alerts.notifier.queue.getJob('n-twice-ops');
    await until('the job done', async () => ((await job!.isCompleted()) ? true : undefined));
    expect(receiver.received).toEqual([]);
    expect((await engine.alerts.repo.notifications())[0]).toMatchObject({
      attempts: 1,
      delivered_at: T0 + 500,
    });
  });
});
