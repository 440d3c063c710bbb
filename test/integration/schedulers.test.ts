// Scheduler reconciliation against a real Redis: exactly one scheduler per configured (source, zone).
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const ids = async (h: Harness, engine: Awaited<ReturnType<Harness['engine']>>) =>
  (await engine.runtime.queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();

describe('scheduler reconciliation', () => {
  it('repeated and concurrent restarts leave exactly one scheduler per (source, zone)', async () => {
    h = await harness();
    const zones = { pullZones: [101, 102], shieldZones: [201] };
    const engines = await Promise.all([h.engine(zones), h.engine(zones), h.engine(zones)]);
    // Three processes starting at once, then five restarts of one of them.
    await Promise.all(engines.map((e) => e.runtime.reconcileSchedulers()));
    for (let i = 0; i < 5; i++) {
      const plan = await engines[0].runtime.reconcileSchedulers();
      expect(plan.upsert).toEqual([]); // nothing to change: no writes
    }
    expect(await ids(h, engines[0])).toEqual([
      'guardian-201',
      'maintenance',
      'origin-101',
      'origin-102',
      'shield-201',
    ]);
    // One upcoming job per scheduler, no duplicates: an `every` scheduler's first job waits (it is due
    // at once, and no worker runs here), the daily one is delayed.
    const upcoming = await engines[0].runtime.queue.getJobs(['wait', 'delayed', 'prioritized']);
    const perScheduler = new Map<string, number>();
    for (const job of upcoming)
      if (job.repeatJobKey) perScheduler.set(job.repeatJobKey, (perScheduler.get(job.repeatJobKey) ?? 0) + 1);
    // Exactly one per scheduler: an empty map (no upcoming jobs at all) fails here too.
    expect(Object.fromEntries(perScheduler)).toEqual({
      'guardian-201': 1,
      maintenance: 1,
      'origin-101': 1,
      'origin-102': 1,
      'shield-201': 1,
    });
  });

  it('removes the schedulers of zones no longer configured and follows a changed interval', async () => {
    h = await harness();
    const before = await h.engine({ pullZones: [101, 102], shieldZones: [201] });
    await before.runtime.reconcileSchedulers();
    const after = await h.engine({ pullZones: [101], shieldZones: [], schedule: { refreshEvery: '30m' } });
    const plan = await after.runtime.reconcileSchedulers();
    expect(plan.remove.sort()).toEqual(['guardian-201', 'origin-102', 'shield-201']);
    expect(plan.upsert.map((w) => w.id)).toEqual(['origin-101']);
    const schedulers = await after.runtime.queue.getJobSchedulers(0, -1);
    expect(schedulers.map((s) => s.key).sort()).toEqual(['maintenance', 'origin-101']);
    expect(schedulers.find((s) => s.key === 'origin-101')?.every).toBe(1_800_000);
  });
});
