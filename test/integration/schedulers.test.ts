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
    const delayed = await engines[0].runtime.queue.getDelayed();
    // One upcoming job per scheduler, no duplicates.
    const perScheduler = new Map<string, number>();
    for (const job of delayed)
      if (job.repeatJobKey) perScheduler.set(job.repeatJobKey, (perScheduler.get(job.repeatJobKey) ?? 0) + 1);
    expect([...perScheduler.values()].every((n) => n === 1)).toBe(true);
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
