// New-term rules end to end, on each store: the simulator's zone 101 gets an error code it never had
// (a hostile one), the real engine and queues judge it, a webhook receiver on loopback gets exactly one
// firing notice naming the new value (escaped), nothing more across a restart, one resolved notice
// once a complete window passes without it.
import { afterEach, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { at, clock } from '../support/clock.js';

const HOSTILE = 'evil\u001b]0;owned\u0007<!channel>';

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
});

function config(url: string, lookback = '6h'): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url }, chat: { type: 'slack', url } },
      rules: [
        {
          name: 'new-error-code',
          type: 'new-term',
          source: 'origin',
          field: 'error_code',
          window: '1h',
          lookback,
          min: 5,
          hooks: ['ops', 'chat'],
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

const sync = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));
const webhook = (r: Receiver) => r.received.filter((x) => 'version' in x.json);
const slack = (r: Receiver) => r.received.filter((x) => 'text' in x.json);

describeStores('the new-term rule', (store) => {
  it('one firing notice naming the new value, nothing more across a restart, one resolved notice', async () => {
    receiver = await startReceiver();
    const c = clock(at(11.25));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 40, errorCode: HOSTILE }],
    });
    let engine = await h.engine(config(receiver.url), c.now);
    const first = await sync(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 2, delivered: 2 });
    expect(webhook(receiver)).toHaveLength(1);
    const notice = webhook(receiver)[0]!.json;
    expect(notice).toMatchObject({
      status: 'firing',
      commonLabels: { alertname: 'new-error-code', zone: '101', rule_type: 'new-term' },
    });
    const alert = (notice.alerts as Array<{ annotations: Record<string, string> }>)[0]!;
    expect(alert.annotations).toMatchObject({
      windowStart: '2026-11-22T10:00:00.000Z',
      windowEnd: '2026-11-22T11:00:00.000Z',
      newValues: '1',
      values: '"evil\\x1b]0;owned\\x07<!channel>" (40)',
    });
    expect(alert.annotations.summary).toContain('1 new error_code value in origin');
    // Slack: no control character, and no <!channel> that would page a whole channel.
    const text = slack(receiver)[0]!.json.text as string;
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');

    // A restart while the same window is the latest complete one sends nothing more.
    await engine.close();
    c.set(at(11.75));
    engine = await h.engine(config(receiver.url), c.now);
    await sync(engine);
    await engine.alerts.check();
    expect(receiver.received).toHaveLength(2);
    const states = await engine.alerts.repo.listStates();
    expect(states.find((s) => s.zone_id === 101)).toMatchObject({ state: 'firing', last_value: 1 });
    expect(states.find((s) => s.zone_id === 102)).toMatchObject({ state: 'inactive', last_value: 0 });

    // The next complete window has no new value (the code was seen in its lookback): resolved, once.
    c.set(at(12.25));
    const later = await sync(engine);
    expect(later.summary.alerts).toMatchObject({ notices: 2, delivered: 2 });
    expect(webhook(receiver).map((r) => r.json.status)).toEqual(['firing', 'resolved']);
    await engine.alerts.check();
    await sync(engine);
    expect(receiver.received).toHaveLength(4);
  });

  it('judges nothing while the lookback reaches before what is archived, and says so', async () => {
    receiver = await startReceiver();
    const c = clock(at(11.25));
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 40, errorCode: 'fresh' }],
    });
    // 14 days of lookback; the archive holds today and the two days before.
    const engine = await h.engine(config(receiver.url, '14d'), c.now);
    await sync(engine);
    const results = await engine.alerts.check();
    expect(results.find((r) => r.zone === 101)).toMatchObject({
      condition: null,
      state: 'inactive',
      reason: expect.stringContaining('lookback') as string,
    });
    expect(receiver.received).toHaveLength(0);
  });
});
