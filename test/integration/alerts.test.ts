// Alerting end to end: a spike in one zone of the simulator, the real engine and queues, a webhook
// receiver on loopback, on each store. Exactly one firing and one resolved notice; restarts send nothing more; a
// receiver that is down gets the notice once it is back.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { at, clock } from '../support/clock.js';

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
});

/** A clock the test moves; the simulator and the engine both read it. */
function alertConfig(url: string): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url, secret: 'hook-secret' } },
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          hooks: ['ops'],
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

async function syncToday(engine: Engine) {
  const plan = syncPlan(engine.config, {}, engine.now());
  return executeSync(engine, plan);
}

const firing = (r: Receiver) => r.received.filter((x) => x.json.status === 'firing');
const resolved = (r: Receiver) => r.received.filter((x) => x.json.status === 'resolved');

describeStores('alerting', (store) => {
  it('one firing notice for a spike, nothing more across a restart, one resolved notice after it passes', async () => {
    receiver = await startReceiver();
    const c = clock(at(10.5));
    // 2,400 entries a day (≈100 an hour) plus 1,000 503s in zone 101 between 10:00 and 11:00.
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    let engine = await h.engine(alertConfig(receiver.url), c.now);

    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 1, delivered: 1 });
    expect(firing(receiver)).toHaveLength(1);
    const notice = firing(receiver)[0]!;
    expect(notice.json).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'ops',
      commonLabels: { alertname: 'origin-5xx-spike', zone: '101' },
    });
    const alert = (notice.json.alerts as Array<Record<string, unknown>>)[0]!;
    expect(alert.annotations).toMatchObject({
      windowStart: '2026-11-22T10:00:00.000Z',
      threshold: expect.any(String) as string,
    });
    expect(notice.headers['x-edgelog-signature']).toBe(
      `sha256=${createHmac('sha256', 'hook-secret').update(notice.body).digest('hex')}`,
    );
    expect(notice.headers['idempotency-key']).toBe(`${alert.fingerprint as string}-firing-${at(10.5)}`);
    // Zone 102 had no spike: no notice for it.
    expect(
      receiver.received.every((r) => (r.json.commonLabels as Record<string, string>).zone === '101'),
    ).toBe(true);

    // A restart (a new process, same archive and Redis) while the spike goes on sends nothing more.
    await engine.close();
    c.set(at(10.75));
    engine = await h.engine(alertConfig(receiver.url), c.now);
    await syncToday(engine);
    await engine.alerts.check();
    expect(receiver.received).toHaveLength(1);
    expect((await engine.alerts.repo.listStates()).find((s) => s.zone_id === 101)?.state).toBe('firing');

    // Still firing while the next hour fills in (the spike's hour is the latest complete window).
    c.set(at(11.5));
    await syncToday(engine);
    expect(receiver.received).toHaveLength(1);

    // One full quiet hour later: resolved, once.
    c.set(at(12.25));
    const later = await syncToday(engine);
    expect(later.summary.alerts).toMatchObject({ notices: 1, delivered: 1 });
    expect(resolved(receiver)).toHaveLength(1);
    const done = (resolved(receiver)[0]!.json.alerts as Array<Record<string, unknown>>)[0]!;
    expect(done).toMatchObject({
      status: 'resolved',
      startsAt: new Date(at(10.5)).toISOString(),
      endsAt: new Date(at(12.25)).toISOString(),
    });
    await engine.alerts.check();
    await syncToday(engine);
    expect(receiver.received).toHaveLength(2);
  });

  it('a receiver that is down at first gets the notice once it is back, exactly once', async () => {
    receiver = await startReceiver();
    receiver.down = true;
    const c = clock(at(10.5));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    const engine = await h.engine(alertConfig(receiver.url), c.now);
    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 1, delivered: 0, pending: 1 });
    expect(receiver.refused).toBeGreaterThanOrEqual(1);
    expect(receiver.received).toHaveLength(0);

    // `edgelog run` keeps the delivery queue going; the receiver comes back.
    engine.alerts.notifier.startWorker();
    receiver.down = false;
    for (let i = 0; i < 100 && receiver.received.length === 0; i++) await sleep(50);
    expect(firing(receiver)).toHaveLength(1);
    // The receiver counts the request when it arrives; the outbox records the delivery once the answer is
    // back, a moment later.
    let outbox = await engine.alerts.repo.notifications();
    for (let i = 0; i < 100 && outbox[0]?.delivered_at == null; i++) {
      await sleep(50);
      outbox = await engine.alerts.repo.notifications();
    }
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.delivered_at).not.toBeNull();
    expect(outbox[0]!.attempts).toBeGreaterThanOrEqual(2);
    await sleep(500);
    expect(receiver.received).toHaveLength(1);
  });
});
