// `alerts check --dry-run` shows exactly what would be sent: the requests it prints are, byte for byte,
// those a real check then makes to a receiver on loopback; and it saves and sends nothing (both stores).
import { afterEach, expect, it } from 'vitest';
import { dryRun } from '../../src/alerts/dry-run.js';
import { compileTemplates } from '../../src/alerts/templates.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput } from '../../src/config/index.js';
import { silentLogger } from '../../src/logger.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (hours: number) => T0 + hours * H;

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
  h = undefined;
  receiver = undefined;
});

function config(url: string): ConfigInput {
  const hook = new URL(url);
  hook.username = 'edgelog';
  hook.password = 'hook-password';
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: {
        ops: {
          type: 'webhook',
          url: hook.href,
          secret: 'signing-secret',
          template: 'zone {{ alerts[0].zone }}',
        },
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
          hooks: ['ops'],
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

describeStores('alerts check --dry-run', (store) => {
  it('makes exactly the requests a real check then makes, and saves and sends nothing', async () => {
    receiver = await startReceiver();
    const t = at(10.5);
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: () => t,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    // The archive first, with no rules: nothing judged yet.
    const archiving = await h.engine({ pullZones: [101, 102], shieldZones: [] }, () => t);
    await executeSync(archiving, syncPlan(archiving.config, {}, t));
    await archiving.close();

    const engine = await h.engine(config(receiver.url), () => t);
    const dry = await dryRun({
      config: engine.config,
      repo: engine.alerts.repo,
      silences: engine.store.silences,
      templates: await compileTemplates(engine.config.alerts.hooks),
      logger: silentLogger(),
      now: () => t,
    });
    expect(dry.results.map((r) => [r.zone, r.state, r.notified])).toEqual([
      [101, 'firing', 'firing'],
      [102, 'inactive', null],
    ]);
    expect(dry.requests).toHaveLength(1);
    expect(await engine.alerts.repo.listStates()).toEqual([]);
    expect(await engine.alerts.repo.notifications()).toEqual([]);
    expect(receiver.received).toHaveLength(0);

    await executeSync(engine, syncPlan(engine.config, {}, t));
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    const planned = dry.requests[0]!.request;
    expect(got.body).toBe(planned.body);
    for (const [name, value] of Object.entries(planned.headers)) expect(got.headers[name]).toBe(value);
    expect(`${planned.url.origin}${planned.url.pathname}`).toBe(receiver.url);
  });
});
