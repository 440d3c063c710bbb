// A webhook receiver that accepts and never answers (timeout 60 s) must neither hold up the other
// hooks' notices nor the engine's shutdown: real engine, queues and receivers on loopback.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import { harness, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (hours: number) => T0 + hours * H;
const now = () => at(10.5);

let h: Harness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await h?.close();
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(opts: { hanging?: boolean } = {}): Promise<Receiver> {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

/** A 5xx spike between 10:00 and 11:00 in each zone; the rule notifies `hooks`. */
async function spikingEngine(
  zones: number[],
  hooks: Record<string, string>,
  hanging: string[],
): Promise<Engine> {
  h = await harness({
    entriesPerDay: 2_400,
    now,
    pullZones: zones,
    spikes: zones.map((zone) => ({
      source: 'origin',
      zone,
      from: at(10),
      to: at(11),
      count: 1000,
      statusCode: 503,
    })),
  });
  return h.engine(alertConfig(zones, hooks, hanging), now);
}

function alertConfig(zones: number[], hooks: Record<string, string>, hanging: string[]): ConfigInput {
  return {
    pullZones: zones,
    shieldZones: [],
    worker: { shutdownTimeout: '2s' },
    alerts: {
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([name, url]) => [
          name,
          { type: 'webhook' as const, url, ...(hanging.includes(name) ? { timeout: '60s' } : {}) },
        ]),
      ),
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          hooks: Object.keys(hooks),
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
      // One delivery per zone's notice (more than the worker's slots), not one grouped notice.
      groupWait: '0s',
    },
  };
}

/** Archives today's logs; each finished day evaluates the rules and queues its notices. */
async function ingestToday(engine: Engine): Promise<void> {
  const jobs = await engine.runtime.enqueueSync(syncPlan(engine.config, {}, engine.now()).days);
  engine.runtime.startWorker();
  const outcomes = await engine.runtime.waitFor(jobs);
  expect(outcomes.filter((o) => o.result === undefined)).toEqual([]);
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const start = Date.now(); !(await done()); await sleep(20)) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}

describe('a webhook that accepts and never answers', () => {
  it('does not delay the other hook, even with more hanging deliveries than worker slots', async () => {
    const hang = await receiver({ hanging: true });
    const ops = await receiver();
    const zones = [101, 102, 103, 104, 105, 106];
    const engine = await spikingEngine(zones, { hang: hang.url, ops: ops.url }, ['hang']);
    await ingestToday(engine);
    expect(await engine.alerts.repo.notifications()).toHaveLength(2 * zones.length);

    // Six notices to each hook wait in the queue, the hanging hook's first (the rule lists it first).
    const started = Date.now();
    engine.alerts.notifier.startWorker();
    await until(
      'every notice to reach the answering hook',
      () => ops.received.length >= zones.length,
      20_000,
    );
    // Well under the hanging hook's 60 s timeout: its deliveries never held the other hook's.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(new Set(ops.received.map((r) => r.headers['idempotency-key'])).size).toBe(zones.length);
    // The hanging hook holds at most its own share of the slots.
    expect(hang.held.length).toBeGreaterThanOrEqual(1);
    expect(hang.held.length).toBeLessThanOrEqual(2);
  }, 60_000);

  it('engine.close() returns within worker.shutdownTimeout and leaves the delivery queued for a retry', async () => {
    const hang = await receiver({ hanging: true });
    const engine = await spikingEngine([101], { hang: hang.url }, ['hang']);
    await ingestToday(engine);
    engine.alerts.notifier.startWorker();
    await until('the delivery to be in flight', () => hang.held.length === 1, 10_000);

    const closing = Date.now();
    await engine.close();
    // shutdownTimeout is 2 s; the rest is slack for a loaded machine (the hook's own timeout is 60 s).
    expect(Date.now() - closing).toBeLessThan(2_000 + 4_000);

    // The interrupted delivery is not counted as a failed attempt, and the job went back to the queue.
    const key = hang.held[0]!.headers['idempotency-key'] as string;
    const next = await h!.engine(alertConfig([101], { hang: hang.url }, ['hang']), now);
    expect((await next.alerts.repo.notifications())[0]).toMatchObject({ attempts: 0, delivered_at: null });
    expect(['waiting', 'delayed', 'prioritized']).toContain(
      await next.alerts.notifier.queue.getJobState(`${key}-hang`),
    );

    // The receiver recovers: the next worker delivers the notice, with the same idempotency key.
    hang.hanging = false;
    next.alerts.notifier.startWorker();
    await until('the retried delivery', () => hang.received.length === 1, 10_000);
    expect(hang.received[0]!.headers['idempotency-key']).toBe(key);
    await until(
      'the outbox to record it',
      async () => (await next.alerts.repo.notifications())[0]!.delivered_at !== null,
      5_000,
    );
    expect((await next.alerts.repo.notifications())[0]!.attempts).toBe(1);
  }, 60_000);
});
