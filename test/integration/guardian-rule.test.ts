// The guardian rule across a worker's restart, on each store: a start takes two snapshots milliseconds
// apart (its catch-up and the scheduler's first run) after a gap of hours. Neither pair is an increase
// per snapshot interval: no notice fires at the start, nor resolves right after; a real burst later
// fires once.
import { afterEach, expect, it } from 'vitest';
import { AlertEvaluator } from '../../src/alerts/evaluator.js';
import type { Engine } from '../../src/engine.js';
import { silentLogger } from '../../src/logger.js';
import type { Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';

const M = 60_000;
const T0 = Date.parse('2026-11-22T08:00:00Z');

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describeStores('the guardian rule', (store) => {
  it('judges the increase over one snapshot interval: a start neither fires nor resolves', async () => {
    h = await storeHarness(store);
    const engine: Engine = await h.engine(
      {
        pullZones: [],
        shieldZones: [201],
        schedule: { guardianEvery: '15m' },
        alerts: {
          hooks: { ops: { type: 'webhook', url: 'http://127.0.0.1:9/hook' } },
          rules: [
            {
              name: 'blocked-burst',
              type: 'guardian',
              counter: 'totalBlockedRequests',
              maxIncrease: 1_000,
              hooks: ['ops'],
            },
          ],
        },
      },
      () => T0,
    );
    /** A snapshot of the counter taken at `at`, then the rule evaluated as the worker does after it. */
    const snapshot = async (at: number, blocked: number) => {
      await engine.store.guardian.add(201, new Date(at), { data: { totalBlockedRequests: blocked } });
      const evaluator = new AlertEvaluator({
        config: engine.config,
        repo: engine.alerts.repo,
        logger: silentLogger(),
        now: () => at,
      });
      const [result] = await evaluator.evaluate();
      return result!;
    };

    await snapshot(T0, 100);
    expect(await snapshot(T0 + 15 * M, 150)).toMatchObject({ condition: false, value: 50 });
    // The worker is stopped for three hours; the counter grows meanwhile. It starts: two snapshots 37 ms
    // apart. The first is three hours after the one before it, the second 37 ms after the first.
    const start = T0 + 3 * 60 * M + 15 * M;
    expect(await snapshot(start, 20_000)).toMatchObject({
      state: 'inactive',
      condition: null,
      notified: null,
      reason: expect.stringContaining('more than two snapshot intervals') as string,
    });
    expect(await snapshot(start + 37, 20_001)).toMatchObject({ state: 'inactive', notified: null });
    // One interval on: judged against the start's snapshot.
    expect(await snapshot(start + 15 * M, 20_100)).toMatchObject({ condition: false, value: 99 });
    expect(await engine.alerts.repo.notifications()).toEqual([]);

    // A burst: fires once, and the next snapshot a moment later (a second start) does not resolve it.
    expect(await snapshot(start + 30 * M, 30_000)).toMatchObject({ state: 'firing', notified: 'firing' });
    expect(await snapshot(start + 30 * M + 37, 30_001)).toMatchObject({
      state: 'firing',
      value: 9_901,
      notified: null,
    });
    expect((await engine.alerts.repo.notifications()).map((n) => n.status)).toEqual(['firing']);
  });
});
