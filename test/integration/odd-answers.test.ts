// What the API may send besides the documented shapes (API-NOTES: nearly every field may be null), end to
// end through the queue into the archive: odd and unkeyable entries, an origin answer that says it holds
// more, bodies that are not JSON, a body that streams for longer than the request deadline, tokens that
// are dot segments.
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import type { DayJob } from '../../src/queue/jobs.js';
import type { SimSource } from '../../src/simulator/index.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import { checkDay, invariantProblems } from '../fault/lib/archive-check.js';
import type { ArchiveReader } from '../support/archive-reader.js';
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

/** The archive holds the oracle's keyable entries as rows and its unkeyable ones in quarantine, exactly. */
async function expectAccountedFor(db: ArchiveReader, source: SimSource, zone: number, day: Day) {
  const check = await checkDay(db, h.sim, { source, zone, day }, { at: NOW, wholePass: true });
  expect(check.problems).toEqual([]);
  // The ledger tells the truth: its totals are the rows, and the rollups count each row once.
  expect(await invariantProblems(db)).toEqual([]);
  return { rows: check.rows, quarantined: check.quarantined };
}

describe.each([1, 0])('odd answers, pageThreads %i', (pageThreads) => {
  const worker = { pageThreads };

  // One entry without a usable key used to fail its page and every later page of the day.
  it('every entry is stored or quarantined, and a re-sync adds nothing', async () => {
    h = await harness({ entriesPerDay: 3_000, pageSize: 400, oddEntryRate: 0.05, malformedRate: 0.01 });
    const engine = await h.engine({ worker });
    const jobs = [
      { source: 'origin' as const, zone: 101, day: YESTERDAY },
      { source: 'shield' as const, zone: 201, day: YESTERDAY },
      { source: 'shield' as const, zone: 201, day: TODAY },
    ];
    const first = await sync(engine, jobs);
    expect(first.map((o) => o.error)).toEqual([undefined, undefined, undefined]);
    expect(first.map((o) => o.result!.outcome)).toEqual(['complete', 'complete', 'partial']);
    const db = await h.reader();
    let quarantined = 0;
    for (const j of jobs) quarantined += (await expectAccountedFor(db, j.source, j.zone, j.day)).quarantined;
    expect(quarantined).toBeGreaterThan(50);
    expect(first.reduce((n, o) => n + o.result!.quarantined, 0)).toBe(quarantined);

    const again = await sync(engine, jobs);
    expect(again.map((o) => [o.result!.newEntries, o.result!.archived])).toEqual(
      first.map((o) => [0, o.result!.archived]),
    );
    for (const j of jobs) await expectAccountedFor(db, j.source, j.zone, j.day);
  });

  it('tokens "." and ".." are sent as segments of their own, and the day equals the oracle', async () => {
    h = await harness({ entriesPerDay: 2_000, pageSize: 300, dotTokens: true });
    const engine = await h.engine({ worker });
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 201, day: YESTERDAY }]);
    expect(outcome!.result).toMatchObject({ outcome: 'complete', pages: 7, entries: 2_000, archived: 2_000 });
    await expectAccountedFor(await h.reader(), 'shield', 201, YESTERDAY);
  });

  // A body trickled a byte every 0.8 s is never silent for bodyTimeout, and the request deadline stops
  // counting at the headers: it used to hold the job's slot for as long as the API kept trickling.
  it('a trickled answer fails the day at api.responseTimeout; once answered, the day is stored whole', async () => {
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
      worker: { ...worker, jobAttempts: 1 },
    });
    const jobs = [
      { source: 'shield' as const, zone: 201, day: YESTERDAY },
      { source: 'origin' as const, zone: 101, day: YESTERDAY },
    ];
    for (const o of await sync(engine, jobs)) {
      expect(o.error).toMatch(/within the 2000 ms response timeout \(api\.responseTimeout\)/);
    }
    for (const j of jobs) expect((await engine.store.ledger.get(j))?.last_error).toMatch(/response timeout/);
    h.sim.setFaults([]);
    const stored = await sync(engine, jobs);
    expect(stored.map((o) => o.result?.outcome)).toEqual(['complete', 'complete']);
    for (const j of jobs) await expectAccountedFor(await h.reader(), j.source, j.zone, j.day);
  });
});

describe('answers that are not what was asked for', () => {
  // An origin answer saying `hasMoreData: true` used to be logged only, and the day could end complete.
  it('an origin answer that says it holds more leaves the day incomplete, its entries stored', async () => {
    h = await harness({ entriesPerDay: 800, faults: [{ kind: 'more' }] });
    const engine = await h.engine();
    const [outcome] = await sync(engine, [{ source: 'origin', zone: 101, day: YESTERDAY }]);
    expect(outcome!.result).toMatchObject({ outcome: 'incomplete', state: 'incomplete', archived: 800 });
    expect(outcome!.result!.error).toMatch(/holds more data/);
    expect(await engine.store.ledger.get({ source: 'origin', zone: 101, day: YESTERDAY })).toMatchObject({
      state: 'incomplete',
      covered_until: null,
    });
  });

  it.each([
    ['html', /HTML, \d[\d,]* bytes, content-type text\/html[^,]*, starting "<!DOCTYPE html>/],
    ['gzip', /gzip-compressed, \d[\d,]* bytes, .*content-encoding gzip, starting "\\x1f\\x8b/],
  ] as const)('a 200 %s body is named in the error, its bytes never printed raw', async (kind, what) => {
    h = await harness({ entriesPerDay: 50, faults: [{ kind }] });
    const engine = await h.engine({ api: { retryAttempts: 2 }, worker: { jobAttempts: 1 } });
    const outcomes = await sync(engine, [
      { source: 'shield', zone: 201, day: YESTERDAY },
      { source: 'origin', zone: 101, day: YESTERDAY },
    ]);
    for (const o of outcomes) {
      expect(o.error).toMatch(what);
      expect(o.error).toMatch(/^[\x20-\x7e…]*$/);
    }
    const row = (await engine.store.ledger.get({ source: 'shield', zone: 201, day: YESTERDAY }))!;
    expect(row.state).toBe('failed');
    expect(row.last_error).toMatch(what);
  });

  it.each([['null outer fields', { kind: 'null-fields' as const }]])(
    '%s are answered like missing ones',
    async (_name, fault) => {
      h = await harness({ entriesPerDay: 900, pageSize: 400, faults: [fault] });
      const engine = await h.engine();
      const outcomes = await sync(engine, [
        { source: 'shield', zone: 201, day: YESTERDAY },
        { source: 'origin', zone: 101, day: YESTERDAY },
      ]);
      expect(outcomes.map((o) => o.result?.outcome)).toEqual(['complete', 'complete']);
      await expectAccountedFor(await h.reader(), 'shield', 201, YESTERDAY);
      await expectAccountedFor(await h.reader(), 'origin', 101, YESTERDAY);
    },
  );

  // The request deadline used to cover reading the whole body: a day that took longer to stream than the
  // deadline failed on every try.
  it('an origin day that streams for longer than the request deadline is stored whole', async () => {
    h = await harness({
      entriesPerDay: 2_000,
      faults: [{ kind: 'slow-body', operation: 'originErrorLogs', chunks: 6, delayMs: 500 }],
    });
    const engine = await h.engine({
      api: { requestDeadline: '2s', headersTimeout: '1s', bodyTimeout: '1s', connectTimeout: '1s' },
    });
    const started = Date.now();
    const [outcome] = await sync(engine, [{ source: 'origin', zone: 101, day: YESTERDAY }]);
    expect(Date.now() - started).toBeGreaterThan(2_000); // it did take longer than the deadline
    expect(outcome!.error).toBeUndefined();
    expect(outcome!.result).toMatchObject({ outcome: 'complete', archived: 2_000 });
  });
});
