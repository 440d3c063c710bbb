// sql rules end to end, on each store: a read-only statement's rows are alerts. The real engine and
// queues, a webhook receiver on loopback: one firing notice per row (its columns as labels, hostile
// ones escaped where shown), nothing more across a restart, one resolved notice when the row goes away.
// A statement that would write, or does not parse, is refused at start naming the rule; one that runs
// too long is stopped and decides nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { ConfigInput, SqlRule } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import { SqlRuleEvaluator } from '../../src/alerts/sql-evaluator.js';
import { ConfigError } from '../../src/errors/index.js';
import { silentLogger } from '../../src/logger.js';
import { storeRuleQueries } from '../../src/store/rule-queries.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { expireAll } from '../support/history-files.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (hours: number) => T0 + hours * H;
const HOSTILE = 'evil\u001b]0;owned\u0007<!channel>';

let h: Harness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
});

const ROWS = `SELECT pull_zone_id AS zone, error_code, count(*) AS value
  FROM origin_error_logs WHERE status_code = 599 GROUP BY pull_zone_id, error_code`;

function config(url: string, rule: Record<string, unknown> = {}): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url }, chat: { type: 'slack', url } },
      rules: [
        {
          name: 'odd-599s',
          type: 'sql',
          sql: ROWS,
          severity: 'page',
          hooks: ['ops', 'chat'],
          ...rule,
        } as never,
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

const sync = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));
const webhook = (r: Receiver) => r.received.filter((x) => 'version' in x.json);
const slack = (r: Receiver) => r.received.filter((x) => 'text' in x.json);
type Alert = { labels: Record<string, string>; annotations: Record<string, string>; fingerprint: string };

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await sleep(25);
}

describeStores('the sql rule', (store) => {
  it('one firing notice per row, nothing more across a restart, one resolved notice when it goes away', async () => {
    receiver = await startReceiver();
    let now = at(11.5);
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: () => now,
      spikes: [
        {
          source: 'origin',
          zone: 101,
          from: at(10),
          to: at(11),
          count: 40,
          statusCode: 599,
          errorCode: HOSTILE,
        },
        {
          source: 'origin',
          zone: 102,
          from: at(9),
          to: at(10),
          count: 3,
          statusCode: 599,
          errorCode: 'plain',
        },
      ],
    });
    let engine = await h.engine(config(receiver.url), () => now);
    const first = await sync(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 4, delivered: 4 });
    const alerts = webhook(receiver).map((r) => (r.json.alerts as Alert[])[0]!);
    expect(alerts.map((a) => a.labels).sort((a, b) => a.zone!.localeCompare(b.zone!))).toEqual([
      {
        alertname: 'odd-599s',
        source: 'sql',
        zone: '101',
        rule_type: 'sql',
        severity: 'page',
        error_code: HOSTILE,
      },
      {
        alertname: 'odd-599s',
        source: 'sql',
        zone: '102',
        rule_type: 'sql',
        severity: 'page',
        error_code: 'plain',
      },
    ]);
    const evil = alerts.find((a) => a.labels.zone === '101')!;
    expect(evil.annotations).toMatchObject({
      value: '40',
      summary: expect.stringContaining('(value 40)') as string,
    });
    // Shown escaped: the summary for terminals, Slack's text for Slack.
    expect(evil.annotations.summary).toContain('error_code="evil\\x1b]0;owned\\x07<!channel>"');
    for (const s of slack(receiver)) expect(s.json.text).not.toContain('<!channel>');

    // A restart: the same rows, the same alerts, nothing sent.
    await engine.close();
    now = at(11.75);
    engine = await h.engine(config(receiver.url), () => now);
    await sync(engine);
    const again = await engine.alerts.check();
    expect(again.map((e) => [e.zone, e.state, e.notified])).toEqual(
      expect.arrayContaining([
        [101, 'firing', null],
        [102, 'firing', null],
      ]),
    );
    expect(receiver.received).toHaveLength(4);
    expect(await engine.store.alertSeries.list()).toHaveLength(2);

    // The rows go away (retention drops every entry, from the store and the history): both resolve, once.
    now = at(12);
    await expireAll(h, engine.store, at(24), now);
    await engine.alerts.check();
    engine.alerts.notifier.startWorker();
    await until(() => receiver!.received.length >= 8);
    expect(webhook(receiver).map((r) => r.json.status)).toEqual(['firing', 'firing', 'resolved', 'resolved']);
    const done = (webhook(receiver)[2]!.json.alerts as Alert[])[0]!;
    expect(alerts.map((a) => a.fingerprint)).toContain(done.fingerprint);
    await engine.alerts.check();
    await sleep(200);
    expect(receiver.received).toHaveLength(8);
  });

  it('refuses at start a statement that would write or does not parse, naming the rule', async () => {
    receiver = await startReceiver();
    h = await storeHarness(store, { entriesPerDay: 10, now: () => at(1) });
    for (const sql of [
      'DELETE FROM origin_error_logs',
      'SELEC zone FROM nowhere',
      'SELECT count(*) FROM no_such_table',
      'WITH gone AS (DELETE FROM alert_state RETURNING rule) SELECT rule FROM gone',
    ]) {
      // A mistake in the configuration (the CLI prints it plainly, not as an "unexpected error").
      const started = h.engine(config(receiver.url, { name: 'bad-rule', sql }), () => at(1));
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(
        /alert rule "bad-rule" \(sql\): query (refused|failed).*; fix alerts\.rules\[0\]\.sql or remove the rule/s,
      );
    }
  });

  it('a statement that runs past its timeout is stopped and decides nothing', async () => {
    receiver = await startReceiver();
    h = await storeHarness(store, { entriesPerDay: 10, now: () => at(1) });
    // The archive's dialect on either store: DuckDB interrupted at the rule's timeout.
    const slow = 'SELECT count(*) AS value FROM range(10000000000000)';
    const engine = await h.engine(config(receiver.url, { sql: slow, timeout: '300ms' }), () => at(1));
    const started = Date.now();
    const results = await engine.alerts.check({ source: 'sql' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(results).toEqual([]);
    expect(await engine.store.alertSeries.list()).toEqual([]);
  });

  it('three evaluations of a sql rule at once, all reading before any saves: one notice per row', async () => {
    h = await storeHarness(store, {
      entriesPerDay: 2_400,
      now: () => at(11.5),
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 5, statusCode: 599 }],
    });
    const engine = await h.engine(config('http://127.0.0.1:9/hook'), () => at(11.5));
    await sync(engine);
    const n = 3;
    const waiting: Array<() => void> = [];
    // The series store, but the first n reads of the rule's states wait until all n have read.
    const series = new Proxy(engine.store.alertSeries, {
      get(target, prop, receiver) {
        if (prop === 'states') {
          return async (rule: string) => {
            const states = await target.states(rule);
            if (waiting.length < n)
              await new Promise<void>((go) => {
                waiting.push(go);
                if (waiting.length === n) for (const w of waiting) w();
              });
            return states;
          };
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    // A rule sync did not evaluate (it fired odd-599s already): its first firing is the race.
    const rule: SqlRule = { ...(engine.config.alerts.rules[0] as SqlRule), name: 'race' };
    const evaluators = Array.from(
      { length: n },
      (_, i) =>
        new SqlRuleEvaluator({
          config: engine.config,
          series,
          queries: storeRuleQueries(engine.store.queries),
          logger: silentLogger(),
          now: () => at(12) + i,
        }),
    );
    const results = (await Promise.all(evaluators.map((e) => e.evaluate(rule)))).flat();
    expect(results.map((r) => r.state)).toEqual(['firing', 'firing', 'firing']);
    expect(results.filter((r) => r.notified === 'firing')).toHaveLength(1);
    const outbox = (await engine.alerts.repo.notifications()).filter((x) => x.rule === 'race');
    // One transition, one notice per hook (ops, chat).
    expect(outbox.map((x) => [x.hook, x.status]).sort()).toEqual([
      ['chat', 'firing'],
      ['ops', 'firing'],
    ]);
  });
});
