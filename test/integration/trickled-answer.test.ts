// A day whose answer is trickled (a byte every 0.8 s: never silent for bodyTimeout) fails its job with a
// retryable timeout after api.responseTimeout per attempt, instead of holding a worker slot for ever,
// on the main thread and in a page thread alike; once the API answers normally the day is stored whole.
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import type { DayJob } from '../../src/queue/jobs.js';
import { addDays } from '../../src/time/utc-day.js';
import { checkDay, invariantProblems } from '../fault/lib/archive-check.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const YESTERDAY = addDays(TODAY, -1);

async function sync(engine: Engine, jobs: Array<Omit<DayJob, 'reason'>>) {
  const runtime = engine.privateRuntime(`t-${Math.random().toString(36).slice(2, 8)}`);
  try {
    const added = await runtime.enqueueSync(jobs.map((j) => ({ ...j, reason: 'sync' as const })));
    runtime.startWorker();
    return await runtime.waitFor<DayResult>(added);
  } finally {
    await runtime.discard();
  }
}

describe.each([1, 0])('a trickled answer, pageThreads %i', (pageThreads) => {
  it('fails the day at api.responseTimeout, then stores it whole once the API answers', async () => {
    h = await harness({
      entriesPerDay: 300,
      pageSize: 100,
      faults: [{ kind: 'slow-body', chunks: 1_000_000, delayMs: 800 }],
    });
    const engine = await h.engine({
      api: {
        connectTimeout: '1s',
        headersTimeout: '1s',
        bodyTimeout: '1s',
        responseTimeout: '2s',
        requestDeadline: '3s',
        retryAttempts: 2,
      },
      worker: { pageThreads, jobAttempts: 1 },
    });
    const jobs = [
      { source: 'shield' as const, zone: 201, day: YESTERDAY },
      { source: 'origin' as const, zone: 101, day: YESTERDAY },
    ];
    const failed = await sync(engine, jobs);
    for (const o of failed)
      expect(o.error).toMatch(/within the 2000 ms response timeout \(api\.responseTimeout\)/);
    for (const j of jobs) {
      expect((await engine.store.ledger.get(j))?.last_error).toMatch(/response timeout/);
    }

    h.sim.setFaults([]);
    const stored = await sync(engine, jobs);
    expect(stored.map((o) => o.result?.outcome)).toEqual(['complete', 'complete']);
    const db = await h.reader();
    for (const j of jobs) {
      const check = await checkDay(db, h.sim, j, { at: NOW, wholePass: true });
      expect(check.problems).toEqual([]);
    }
    expect(await invariantProblems(db)).toEqual([]);
  });
});
