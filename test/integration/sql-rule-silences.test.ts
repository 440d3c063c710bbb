// Silences hold a sql rule's alerts as they hold every other alert, on each store: matched by the rule, by
// `source="sql"`, by the row's zone and by the row's own labels (a column of the statement); a silenced
// series keeps its state and sends nothing, across a restart too; once the silence ends, one notice says
// what changed (a firing that began inside it, a resolution that happened inside it), and a change that
// came and went inside it sends none. `status`'s counts and /metrics count the silenced series.
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { planSilence, silenceToRow } from '../../src/alerts/silences.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import { alertsCollector } from '../../src/monitoring/alerts-collector.js';
import { defineMetrics } from '../../src/monitoring/definitions.js';
import { silencesCollector } from '../../src/monitoring/silences-collector.js';
import { alertSummary } from '../../src/status/alert-summary.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Harness } from '../support/harness.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { expireAll } from '../support/history-files.js';
import { at, clock } from '../support/clock.js';

const RULE = 'odd-599s';

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
  h = undefined;
  receiver = undefined;
});

// A zone per row, and the row's error code as a label of its own; `alertname` and `severity` columns
// that must not stand for edgelog's labels (reserved names win).
const ROWS = `SELECT pull_zone_id AS zone, error_code, 'not-${RULE}' AS alertname, 'info' AS severity,
  count(*) AS value FROM origin_error_logs WHERE status_code = 599 GROUP BY pull_zone_id, error_code`;

function config(url: string): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url } },
      rules: [{ name: RULE, type: 'sql', sql: ROWS, severity: 'page', hooks: ['ops'] } as never],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

const SPIKES = [
  {
    source: 'origin' as const,
    zone: 101,
    from: at(10),
    to: at(11),
    count: 40,
    statusCode: 599,
    errorCode: 'loud',
  },
  {
    source: 'origin' as const,
    zone: 102,
    from: at(9),
    to: at(10),
    count: 3,
    statusCode: 599,
    errorCode: 'plain',
  },
];

const sync = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));

async function silence(
  engine: Engine,
  id: string,
  from: number,
  to: number,
  match: string[],
  zones: number[] = [],
) {
  const s = planSilence({ rule: RULE, zones, match, until: at(to), rowLabels: true }, id, at(from));
  await engine.store.silences.add(silenceToRow(s));
}

type Alert = { status: string; labels: Record<string, string>; endsAt: string };
/** Each alert the receiver got, in order. */
const received = (r: Receiver) => r.received.flatMap((x) => x.json.alerts as Alert[]);
const byZone = (results: ReadonlyArray<{ zone: number }>, zone: number) =>
  results.find((r) => r.zone === zone);

async function delivered(engine: Engine, n: number): Promise<void> {
  engine.alerts.notifier.startWorker();
  for (let i = 0; i < 200 && received(receiver!).length < n; i++) await sleep(25);
  await sleep(100); // and nothing beyond
}

describeStores('silences of a sql rule', (store) => {
  it("hold a row's notices by its own label, across a restart; one notice once the silence ends", async () => {
    receiver = await startReceiver();
    const c = clock(at(11.5));
    h = await storeHarness(store, { entriesPerDay: 2_400, now: c.now, spikes: SPIKES });
    let engine = await h.engine(config(receiver.url), c.now);
    await silence(engine, 'quiet', 11, 12, ['error_code=~"pl.*"', 'source=sql', 'severity=page']);

    expect((await sync(engine)).summary.alerts).toMatchObject({ notices: 1 });
    const first = await engine.alerts.check({ source: 'sql' });
    expect(byZone(first, 101)).toMatchObject({ state: 'firing', notified: null, silencedBy: [] });
    expect(byZone(first, 102)).toMatchObject({ state: 'firing', notified: null, silencedBy: ['quiet'] });
    await delivered(engine, 1);
    expect(received(receiver).map((a) => [a.status, a.labels.zone, a.labels.alertname])).toEqual([
      ['firing', '101', RULE],
    ]);

    // status and /metrics count the silenced row.
    const summary = alertSummary(
      await engine.store.alerts.listStates(),
      await engine.store.alertSeries.list(),
      await engine.store.silences.list({ activeAt: c.now() }),
      engine.config.alerts.rules,
      c.now(),
    );
    expect(summary).toEqual({ firing: 2, pending: 0, silenced: 1, silences: 1 });
    const registry = new Registry();
    const m = defineMetrics(registry);
    await alertsCollector(m, engine.store, engine.config.alerts.rules).collect();
    await silencesCollector(m, engine.store, engine.config.alerts.rules, c.now).collect();
    const families = parsePromText(await registry.metrics());
    expect(sampleValue(families, 'edgelog_alert_states', { rule: RULE, state: 'firing' })).toBe(2);
    expect(sampleValue(families, 'edgelog_alert_silenced', { rule: RULE })).toBe(1);

    // A restart inside the silence sends nothing either.
    await engine.close();
    c.set(at(11.75));
    engine = await h.engine(config(receiver.url), c.now);
    await sync(engine);
    expect(byZone(await engine.alerts.check({ source: 'sql' }), 102)).toMatchObject({ notified: null });
    await delivered(engine, 1);
    expect(received(receiver)).toHaveLength(1);

    // The silence ended, the row is still returned: one firing notice for it; then nothing more.
    c.set(at(12.25));
    expect(byZone(await engine.alerts.check({ source: 'sql' }), 102)).toMatchObject({
      notified: 'firing',
      silencedBy: [],
    });
    await engine.alerts.check({ source: 'sql' });
    await delivered(engine, 2);
    expect(received(receiver).map((a) => [a.status, a.labels.zone, a.labels.error_code])).toEqual([
      ['firing', '101', 'loud'],
      ['firing', '102', 'plain'],
    ]);
  });

  it('hold a resolution inside the silence and send it after; a row that came and went sends nothing', async () => {
    receiver = await startReceiver();
    const c = clock(at(11.5));
    h = await storeHarness(store, { entriesPerDay: 2_400, now: c.now, spikes: SPIKES });
    const engine = await h.engine(config(receiver.url), c.now);
    // Zone 101's row fires before any silence; zone 102's only inside one.
    await silence(engine, 'z102', 11, 13, [], [102]);
    await sync(engine);
    await delivered(engine, 1);
    expect(received(receiver).map((a) => [a.status, a.labels.zone])).toEqual([['firing', '101']]);

    // Now the whole rule is silenced, and both rows go away (retention drops every entry).
    await silence(engine, 'all', 11.6, 13, []);
    c.set(at(12));
    await expireAll(h, engine.store, at(24), at(12));
    const inside = await engine.alerts.check({ source: 'sql' });
    expect(inside.map((r) => [r.zone, r.state, r.notified, r.silencedBy.length > 0]).sort()).toEqual([
      [101, 'resolved', null, true],
      [102, 'resolved', null, true],
    ]);

    // Both silences ended: zone 101's receivers heard it fire, so one resolved notice; 102's nothing.
    c.set(at(13.25));
    const after = await engine.alerts.check({ source: 'sql' });
    expect(after.map((r) => [r.zone, r.notified])).toEqual([[101, 'resolved']]);
    expect(await engine.alerts.check({ source: 'sql' })).toEqual([]);
    await delivered(engine, 2);
    const alerts = received(receiver);
    expect(alerts.map((a) => [a.status, a.labels.zone])).toEqual([
      ['firing', '101'],
      ['resolved', '101'],
    ]);
    // It ended when the state did, inside the silence.
    expect(alerts[1]!.endsAt).toBe(new Date(at(12)).toISOString());
    expect((await engine.alerts.repo.notifications()).filter((n) => n.zone_id === 102)).toEqual([]);
  });
});
