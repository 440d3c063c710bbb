// One evaluation pass, one group per rule (issue 28, item 8): two zones of a rule judged by one
// `alerts check` go to a hook as one payload even when the clock crosses a groupWait window's end
// between them. Seen once in four runs as two payloads: the group was the window of each zone's own
// evaluation time, so a pass that straddled a window's end split in two. Separate passes still group by
// their windows (README "Grouped notices": fixed windows; test/integration/alert-groups.test.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (hours: number) => T0 + hours * H;

let h: Harness | undefined;
let ops: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await ops?.close();
});

const spikes = [101, 102].map((zone) => ({
  source: 'origin' as const,
  zone,
  from: at(10),
  to: at(11),
  count: 1000,
  statusCode: 503,
}));

describeStores('one evaluation pass', (store) => {
  it('two zones of a rule: one payload, though the clock crosses a window between them', async () => {
    ops = await startReceiver();
    let t = at(10.5);
    h = await storeHarness(store, { entriesPerDay: 2_400, now: () => t, spikes });
    const archiving = await h.engine({ pullZones: [101, 102], shieldZones: [] }, () => t);
    await executeSync(archiving, syncPlan(archiving.config, {}, t));
    await archiving.close();

    // Every reading of the clock is 31 s later: each zone's evaluation falls in another 30 s window.
    const engine = await h.engine(
      {
        pullZones: [101, 102],
        shieldZones: [],
        alerts: {
          hooks: { ops: { type: 'webhook', url: ops.url } },
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
          groupWait: '30s',
        },
      },
      () => (t += 31_000),
    );
    const results = await engine.alerts.check();
    expect(results.map((r) => [r.zone, r.notified])).toEqual([
      [101, 'firing'],
      [102, 'firing'],
    ]);
    await engine.alerts.notifier.flushOutbox({ closeAll: true });
    engine.alerts.notifier.startWorker();
    for (let i = 0; i < 100 && ops.received.length === 0; i++) await sleep(50);
    await sleep(500);
    expect(ops.received).toHaveLength(1);
    const alerts = ops.received[0]!.json.alerts as Array<{ labels: Record<string, string> }>;
    expect(alerts.map((a) => a.labels.zone).sort()).toEqual(['101', '102']);
  });
});
