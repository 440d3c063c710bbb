// Grouped notices end to end: spikes in two zones at once, the real engine and queues, a webhook and a
// Slack-style receiver on loopback, on each store. The rule's notices of one group.wait window go to each
// hook as ONE request (Alertmanager v4 with several alerts[], groupLabels {alertname}, the labels they
// share as commonLabels; one Slack message listing them), under an idempotency key derived from the group.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (hours: number) => T0 + hours * H;

let h: Harness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

function config(webhook: string, slack: string, groupWait: string, template?: string): ConfigInput {
  return {
    pullZones: [101, 102, 103],
    shieldZones: [],
    alerts: {
      hooks: {
        ops: { type: 'webhook', url: webhook },
        chat: { type: 'slack', url: slack, ...(template ? { template } : {}) },
      },
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          severity: 'page',
          hooks: ['ops', 'chat'],
        },
      ],
      groupWait,
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

const spikes = [101, 102].map((zone) => ({
  source: 'origin' as const,
  zone,
  from: at(10),
  to: at(11),
  count: 1000,
  statusCode: 503,
}));

const syncToday = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));

type Alert = { status: string; labels: Record<string, string> };

describeStores('grouped notices', (store) => {
  it('two zones firing together: one request per hook; their resolution: one more', async () => {
    const [ops, chat] = [await startReceiver(), await startReceiver()];
    receivers.push(ops, chat);
    let t = at(10.5);
    h = await storeHarness(store, { entriesPerDay: 2_400, now: () => t, spikes });
    const engine = await h.engine(config(ops.url, chat.url, '30s'), () => t);

    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 4, delivered: 4, pending: 0 });
    expect(ops.received).toHaveLength(1);
    const body = ops.received[0]!.json;
    expect(body).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'ops',
      groupKey: '{}:{alertname="origin-5xx-spike"}',
      groupLabels: { alertname: 'origin-5xx-spike' },
      // What both alerts share, and nothing else: not zone, not the figures of each.
      commonLabels: {
        alertname: 'origin-5xx-spike',
        source: 'origin',
        rule_type: 'spike',
        severity: 'page',
      },
    });
    expect(Object.keys(body.commonLabels as object)).not.toContain('zone');
    expect(body.commonAnnotations).toMatchObject({ windowStart: '2026-11-22T10:00:00.000Z' });
    expect(body.commonAnnotations).not.toHaveProperty('summary');
    const alerts = body.alerts as Alert[];
    expect(alerts.map((a) => [a.status, a.labels.zone]).sort()).toEqual([
      ['firing', '101'],
      ['firing', '102'],
    ]);
    const key = ops.received[0]!.headers['idempotency-key'] as string;
    expect(key).toMatch(/^g[0-9a-f]{32}$/);
    expect(chat.received).toHaveLength(1);
    expect(chat.received[0]!.headers['idempotency-key']).toBe(key);
    const text = (chat.received[0]!.json as { text: string }).text.split('\n');
    expect(text[0]).toBe(':rotating_light: [FIRING:2] origin-5xx-spike');
    expect(
      text
        .slice(1)
        .map((l) => /zone (\d+)/.exec(l)?.[1])
        .sort(),
    ).toEqual(['101', '102']);

    // Another evaluation of the same state: nothing more; both resolve together: one request each.
    await engine.alerts.check();
    await syncToday(engine);
    t = at(12.25);
    const later = await syncToday(engine);
    expect(later.summary.alerts).toMatchObject({ notices: 4, delivered: 4 });
    expect(ops.received.map((r) => r.json.status)).toEqual(['firing', 'resolved']);
    expect((ops.received[1]!.json.alerts as Alert[]).map((a) => a.status)).toEqual(['resolved', 'resolved']);
    expect(chat.received).toHaveLength(2);
    expect(ops.received[1]!.headers['idempotency-key']).not.toBe(key);
  });

  it('in `run`, notices wait for their window to close, then go as one', async () => {
    const [ops, chat] = [await startReceiver(), await startReceiver()];
    receivers.push(ops, chat);
    // The test moves the clock: the group's window closes when it says so, however slow the machine.
    let t = at(10.5) + 100;
    const now = () => t;
    h = await storeHarness(store, { entriesPerDay: 2_400, now, spikes });
    const archiving = await h.engine({ pullZones: [101, 102, 103], shieldZones: [] }, now);
    await syncToday(archiving); // archives the day; no rules yet
    await archiving.close();

    const engine = await h.engine(config(ops.url, chat.url, '2s'), now);
    engine.alerts.notifier.startWorker();
    // Each zone evaluated alone, as after each day's job in `edgelog run`.
    await engine.alerts.check({ source: 'origin', zone: 102 });
    t += 500;
    await engine.alerts.check({ source: 'origin', zone: 101 });
    await sleep(500);
    expect(ops.received).toHaveLength(0); // held while the window is open
    expect(await engine.alerts.repo.unqueued()).toHaveLength(4);
    t = at(10.5) + 2_000; // the window closes; the timer armed by the last flush hands the group
    for (let i = 0; i < 100 && (ops.received.length < 1 || chat.received.length < 1); i++) await sleep(50);
    await sleep(300);
    expect(ops.received).toHaveLength(1);
    expect((ops.received[0]!.json.alerts as Alert[]).map((a) => a.labels.zone).sort()).toEqual([
      '101',
      '102',
    ]);
    expect(chat.received).toHaveLength(1);
    const outbox = await engine.alerts.repo.notifications();
    expect(outbox.filter((n) => n.delivered_at !== null)).toHaveLength(4);
  });

  it("a hook's template makes its text; one that does not render stops the start, naming the hook", async () => {
    const [ops, chat] = [await startReceiver(), await startReceiver()];
    receivers.push(ops, chat);
    const t = at(10.5);
    h = await storeHarness(store, { entriesPerDay: 2_400, now: () => t, spikes });
    const bad = config(ops.url, chat.url, '30s', '{{ alerts | first | shout }}');
    await expect(h.engine(bad, () => t)).rejects.toThrow(/^alerts\.hooks\.chat\.template: .*shout/);

    const template =
      '{{ firing }} firing for {{ rule }}:{% for a in alerts %} zone {{ a.zone }} ({{ a.details.count }}){% endfor %}';
    const engine = await h.engine(config(ops.url, chat.url, '30s', template), () => t);
    await syncToday(engine);
    expect(chat.received).toHaveLength(1);
    const text = (chat.received[0]!.json as { text: string }).text;
    expect(text).toMatch(/^2 firing for origin-5xx-spike: zone 10[12] \(\d+\) zone 10[12] \(\d+\)$/);
    // The webhook without a template: its default payload, no description.
    expect(
      (ops.received[0]!.json.alerts as Array<{ annotations: object }>)[0]!.annotations,
    ).not.toHaveProperty('description');
  });

  it('a restart while a group is being retried hands none of its notices again; one request once the receiver is back', async () => {
    const [ops, chat] = [await startReceiver(), await startReceiver()];
    receivers.push(ops, chat);
    ops.down = true;
    const t = at(10.5);
    h = await storeHarness(store, { entriesPerDay: 2_400, now: () => t, spikes });
    let engine = await h.engine(config(ops.url, chat.url, '30s'), () => t);
    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 4, delivered: 2, pending: 2 });
    expect(ops.refused).toBeGreaterThanOrEqual(1);

    // `edgelog run` starts again (same archive and Redis): the group's job is still queued.
    await engine.close();
    engine = await h.engine(config(ops.url, chat.url, '30s'), () => t);
    expect(await engine.alerts.notifier.rehandOutbox()).toEqual({ rehanded: 0 });
    ops.down = false;
    engine.alerts.notifier.startWorker();
    for (let i = 0; i < 100 && ops.received.length === 0; i++) await sleep(50);
    await sleep(500);
    expect(ops.received).toHaveLength(1);
    expect(ops.received[0]!.json.alerts).toHaveLength(2);
    expect(chat.received).toHaveLength(1);
  });

  it('two workers handing the same group at once: one request per hook', async () => {
    const [ops, chat] = [await startReceiver(), await startReceiver()];
    receivers.push(ops, chat);
    const t = at(10.5);
    h = await storeHarness(store, { entriesPerDay: 2_400, now: () => t, spikes });
    const archiving = await h.engine({ pullZones: [101, 102, 103], shieldZones: [] }, () => t);
    await syncToday(archiving);
    await archiving.close();
    const one = await h.engine(config(ops.url, chat.url, '30s'), () => t);
    const two = await h.engine(config(ops.url, chat.url, '30s'), () => t);
    await one.alerts.check(); // the notices wait for their window
    expect(await one.alerts.repo.unqueued()).toHaveLength(4);
    await Promise.all([
      one.alerts.notifier.flushOutbox({ closeAll: true }),
      two.alerts.notifier.flushOutbox({ closeAll: true }),
    ]);
    one.alerts.notifier.startWorker();
    two.alerts.notifier.startWorker();
    for (let i = 0; i < 100 && (ops.received.length < 1 || chat.received.length < 1); i++) await sleep(50);
    await sleep(500);
    expect(ops.received).toHaveLength(1);
    expect(ops.received[0]!.json.alerts).toHaveLength(2);
    expect(chat.received).toHaveLength(1);
    await two.close();
  });
});
