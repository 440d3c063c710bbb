// Silences end to end: a spike in one zone, the real engine and queues, a webhook receiver on loopback,
// on each store. A silenced alert keeps its state and sends nothing; across a restart too; once the
// silence ends while it still fires, exactly one notice goes out; a change that came and went inside
// the silence sends none.
import { afterEach, expect, it } from 'vitest';
import { planSilence, silenceToRow } from '../../src/alerts/silences.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { H, at, clock } from '../support/clock.js';

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
  h = undefined;
  receiver = undefined;
});

function alertConfig(url: string): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url } },
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          severity: 'critical',
          hooks: ['ops'],
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

const syncToday = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));

/** Silences the rule in zone 101 from `from` to `to` (hours). */
async function silence(engine: Engine, from: number, to: number, match: string[] = []) {
  const s = planSilence(
    { rule: 'origin-5xx-spike', zones: [101], match, until: at(to) },
    `s${from}`,
    at(from),
  );
  await engine.store.silences.add(silenceToRow(s));
  return s.id;
}

const state101 = async (engine: Engine) =>
  (await engine.alerts.repo.listStates()).find((s) => s.zone_id === 101)?.state;

describeStores('silences', (store) => {
  it('hold the notices of a firing alert, across a restart; one notice once the silence ends', async () => {
    receiver = await startReceiver();
    const c = clock(at(10.5));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    let engine = await h.engine(alertConfig(receiver.url), c.now);
    const id = await silence(engine, 10.25, 11.25, ['severity=~"crit.*"']);

    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 0 });
    expect(await state101(engine)).toBe('firing');
    const checked = await engine.alerts.check({ zone: 101 });
    expect(checked).toMatchObject([
      { rule: 'origin-5xx-spike', state: 'firing', notified: null, silencedBy: [id] },
    ]);

    // A restart inside the silence sends nothing either.
    await engine.close();
    c.set(at(11.1));
    engine = await h.engine(alertConfig(receiver.url), c.now);
    await syncToday(engine);
    expect(receiver.received).toHaveLength(0);

    // The silence ended; the spike's hour is still the latest complete window: one firing notice.
    c.set(at(11.5));
    const after = await syncToday(engine);
    expect(after.summary.alerts).toMatchObject({ notices: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(1);
    const alert = (receiver.received[0]!.json.alerts as Array<Record<string, unknown>>)[0]!;
    expect(alert).toMatchObject({ status: 'firing', startsAt: new Date(at(10.5)).toISOString() });
    expect(alert.labels).toMatchObject({ zone: '101', severity: 'critical' });

    // Nothing more for the same change, after another restart either; then one resolved notice.
    await engine.alerts.check();
    await engine.close();
    engine = await h.engine(alertConfig(receiver.url), c.now);
    await syncToday(engine);
    expect(receiver.received).toHaveLength(1);
    c.set(at(12.25));
    await syncToday(engine);
    expect(receiver.received.map((r) => r.json.status)).toEqual(['firing', 'resolved']);
  });

  it('send nothing for a change that came and went inside the silence', async () => {
    receiver = await startReceiver();
    const c = clock(at(10.5));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    const engine = await h.engine(alertConfig(receiver.url), c.now);
    await silence(engine, 10.25, 13);
    await syncToday(engine);
    expect(await state101(engine)).toBe('firing');
    c.set(at(12.25));
    await syncToday(engine);
    expect(await state101(engine)).toBe('resolved');
    c.set(at(13.25));
    await syncToday(engine);
    await engine.alerts.check();
    expect(receiver.received).toHaveLength(0);
    expect(await engine.alerts.repo.notifications()).toHaveLength(0);
  });

  it('a silence of another zone, or one that ended, holds nothing; unsilencing ends one', async () => {
    receiver = await startReceiver();
    const c = clock(at(10.5));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    const engine = await h.engine(alertConfig(receiver.url), c.now);
    const other = planSilence(
      { rule: 'origin-5xx-spike', zones: [102], match: [], forMs: H },
      'other',
      at(10),
    );
    await engine.store.silences.add(silenceToRow(other));
    const ended = await silence(engine, 10, 12);
    expect(await engine.store.silences.expire(ended, at(10.25))).toBe('expired');
    expect(await engine.store.silences.expire(ended, at(10.3))).toBe('ended');
    expect(await engine.store.silences.expire('nope', at(10.3))).toBe('unknown');
    expect((await engine.store.silences.list({ activeAt: at(10.5) })).map((s) => s.id)).toEqual(['other']);
    await syncToday(engine);
    expect(receiver.received.map((r) => r.json.status)).toEqual(['firing']);
  });
});
