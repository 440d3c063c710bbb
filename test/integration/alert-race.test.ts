// Two evaluations of one rule at once (two workers, or `alerts check` beside `edgelog run`) that both
// read the rule's state before either saves: one transition, one notice. Each store makes the save a
// compare-and-set on the state read; the evaluation that loses reads again and finds nothing to send.
import { afterEach, expect, it } from 'vitest';
import { AlertEvaluator } from '../../src/alerts/evaluator.js';
import type { Notice } from '../../src/alerts/payload.js';
import { planSilence, silenceToRow } from '../../src/alerts/silences.js';
import type { ConfigInput } from '../../src/config/index.js';
import type { Engine } from '../../src/engine.js';
import { silentLogger } from '../../src/logger.js';
import type { AlertsStore } from '../../src/store/store.js';
import type { Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T12:00:00Z');

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const hooks = { ops: { type: 'webhook' as const, url: 'http://127.0.0.1:9/hook' } };

/**
 * The store, but the first `n` reads of a rule's state each wait until all `n` have read: every
 * evaluation then starts from the same state, whatever order the queries come back in.
 */
function readingTogether(repo: AlertsStore<Notice>, n: number): AlertsStore<Notice> {
  const waiting: Array<() => void> = [];
  return new Proxy(repo, {
    get(target, prop, receiver) {
      if (prop === 'getState') {
        return async (rule: string, zone: number) => {
          const state = await target.getState(rule, zone);
          if (waiting.length < n) {
            await new Promise<void>((resolve) => {
              waiting.push(resolve);
              if (waiting.length === n) for (const go of waiting) go();
            });
          }
          return state;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `count` evaluators on one store, their clocks a millisecond apart (so are their notices' keys). */
function evaluators(engine: Engine, count: number, now: number) {
  const repo = readingTogether(engine.alerts.repo, count);
  return Array.from(
    { length: count },
    (_, i) =>
      new AlertEvaluator({
        config: engine.config,
        repo,
        silences: engine.store.silences,
        logger: silentLogger(),
        now: () => now + i,
      }),
  );
}

describeStores('overlapping evaluations of one rule', (store) => {
  it('a rule whose state is stored fires once for one transition', async () => {
    h = await storeHarness(store);
    const alerts: ConfigInput['alerts'] = {
      hooks,
      rules: [{ name: 'stale', type: 'flatline', source: 'origin', maxAge: '1h', hooks: ['ops'] }],
    };
    const engine = await h.engine({ pullZones: [101], shieldZones: [], alerts }, () => T0);
    const [first] = evaluators(engine, 1, T0);
    expect(await first!.evaluate()).toMatchObject([{ state: 'inactive', notified: null }]);

    const pair = evaluators(engine, 2, T0 + 2 * H);
    const results = (await Promise.all(pair.map((e) => e.evaluate()))).flat();
    expect(results.map((r) => r.state)).toEqual(['firing', 'firing']);
    expect(results.filter((r) => r.notified === 'firing')).toHaveLength(1);
    const outbox = await engine.alerts.repo.notifications();
    expect(outbox.map((n) => [n.rule, n.status])).toEqual([['stale', 'firing']]);
    const fired = results.find((r) => r.notified === 'firing');
    expect(fired).toBeDefined();
    expect((await engine.alerts.repo.listStates())[0]).toMatchObject({ state: 'firing' });
  });

  it('an alert that fired inside a silence is notified once when it ends, by two at once', async () => {
    h = await storeHarness(store);
    const alerts: ConfigInput['alerts'] = {
      hooks,
      rules: [{ name: 'stale', type: 'flatline', source: 'origin', maxAge: '1h', hooks: ['ops'] }],
    };
    const engine = await h.engine({ pullZones: [101], shieldZones: [], alerts }, () => T0);
    const silence = planSilence({ rule: 'stale', zones: [101], match: [], until: T0 + 3 * H }, 'quiet', T0);
    await engine.store.silences.add(silenceToRow(silence));
    const [first] = evaluators(engine, 1, T0);
    await first!.evaluate();
    const [second] = evaluators(engine, 1, T0 + 2 * H);
    expect(await second!.evaluate()).toMatchObject([
      { state: 'firing', notified: null, silencedBy: ['quiet'] },
    ]);
    expect(await engine.alerts.repo.notifications()).toHaveLength(0);

    const pair = evaluators(engine, 2, T0 + 4 * H);
    const results = (await Promise.all(pair.map((e) => e.evaluate()))).flat();
    expect(results.filter((r) => r.notified === 'firing')).toHaveLength(1);
    const outbox = await engine.alerts.repo.notifications();
    expect(outbox.map((n) => [n.rule, n.status])).toEqual([['stale', 'firing']]);
    const [third] = evaluators(engine, 1, T0 + 5 * H);
    expect(await third!.evaluate()).toMatchObject([{ state: 'firing', notified: null, silencedBy: [] }]);
    expect(await engine.alerts.repo.notifications()).toHaveLength(1);
  });

  it("a rule's first evaluation, by three at once, fires once", async () => {
    h = await storeHarness(store);
    const alerts: ConfigInput['alerts'] = {
      hooks,
      rules: [
        {
          name: 'blocked-burst',
          type: 'guardian',
          counter: 'totalBlockedRequests',
          maxIncrease: 100,
          hooks: ['ops'],
        },
      ],
    };
    const engine = await h.engine({ pullZones: [], shieldZones: [201], alerts }, () => T0);
    await engine.store.guardian.add(201, new Date(T0 - 15 * 60_000), {
      data: { totalBlockedRequests: 10 },
    });
    await engine.store.guardian.add(201, new Date(T0), { data: { totalBlockedRequests: 5_000 } });

    const three = evaluators(engine, 3, T0);
    const results = (await Promise.all(three.map((e) => e.evaluate()))).flat();
    expect(results.map((r) => r.state)).toEqual(['firing', 'firing', 'firing']);
    expect(results.filter((r) => r.notified === 'firing')).toHaveLength(1);
    const outbox = await engine.alerts.repo.notifications();
    expect(outbox.map((n) => [n.rule, n.status])).toEqual([['blocked-burst', 'firing']]);
  });
});
