// The ingestion engine against the simulator and a real Redis: the archive equals the oracle (the full
// sync and re-sync on PostgreSQL too).
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import type { DayJob } from '../../src/queue/jobs.js';
import type { SimSource } from '../../src/simulator/index.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import type { ArchiveReader } from '../support/archive-reader.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { describePostgres, storeHarness, type StoreKind } from '../support/stores.js';

let h: Harness;
afterEach(async () => h?.close());

async function sync(engine: Engine, jobs: Array<Omit<DayJob, 'reason'>>) {
  const added = await engine.runtime.enqueueSync(jobs.map((j) => ({ ...j, reason: 'sync' as const })));
  engine.runtime.startWorker();
  return engine.runtime.waitFor<DayResult>(added);
}

async function archived(db: ArchiveReader, source: SimSource, zone: number, day: string) {
  const table = source === 'origin' ? 'origin_error_logs' : 'shield_event_logs';
  const zoneCol = source === 'origin' ? 'pull_zone_id' : 'shield_zone_id';
  return db.all<{ log_id: string; timestamp: number; log: string; parse_error: string | null }>(
    `SELECT log_id, timestamp, log, parse_error FROM ${table} WHERE ${zoneCol} = ? AND log_date = ? ORDER BY timestamp, log_id`,
    zone,
    day,
  );
}

function oracle(h: Harness, source: SimSource, zone: number, day: Day) {
  return h.sim
    .entries(source, zone, day, NOW)
    .filter((e) => e.keyable)
    .map((e) => ({ log_id: e.logId, timestamp: e.timestamp, log: e.log, malformed: e.malformed }))
    .sort((a, b) => a.timestamp - b.timestamp || (a.log_id < b.log_id ? -1 : a.log_id > b.log_id ? 1 : 0));
}

async function expectEqualsOracle(db: ArchiveReader, source: SimSource, zone: number, day: Day) {
  const rows = await archived(db, source, zone, day);
  const want = oracle(h, source, zone, day);
  expect(rows.length).toBe(want.length);
  expect(rows.map((r) => [r.log_id, r.timestamp, r.log])).toEqual(
    want.map((w) => [w.log_id, w.timestamp, w.log]),
  );
  expect(rows.filter((r) => r.parse_error !== null).length).toBe(want.filter((w) => w.malformed).length);
  return rows.length;
}

/** The acceptance test both stores pass: a full sync equals the oracle exactly, and a re-sync adds nothing. */
async function fullSyncThenResync(store: StoreKind, pageThreads: number) {
  h = await storeHarness(store, { entriesPerDay: 2_400, pageSize: 500, malformedRate: 0.02 });
  const engine = await h.engine({ worker: { pageThreads } });
  const yesterday = addDays(TODAY, -1);
  const days = [yesterday, TODAY];
  const jobs = days.flatMap((day) => [
    { source: 'origin' as const, zone: 101, day },
    { source: 'shield' as const, zone: 201, day },
  ]);
  const first = await sync(engine, jobs);
  expect(first.map((o) => o.error)).toEqual([undefined, undefined, undefined, undefined]);
  const db = await h.reader();
  for (const day of days) {
    const n = await expectEqualsOracle(db, 'origin', 101, day);
    await expectEqualsOracle(db, 'shield', 201, day);
    expect(n).toBeGreaterThan(1000);
  }
  const results = first.map((o) => o.result!);
  const shieldToday = results.find((r) => r.source === 'shield' && r.day === TODAY)!;
  expect(shieldToday.state).toBe('partial'); // today is still filling in
  expect(shieldToday.entries).toBe(h.sim.count('shield', 201, TODAY, NOW));
  expect(shieldToday.newEntries).toBe(shieldToday.entries);
  expect(shieldToday.pages).toBe(Math.ceil(shieldToday.entries / 500));
  expect(results.find((r) => r.source === 'shield' && r.day === yesterday)!.state).toBe('complete');
  const malformed = Number(
    await db.value('SELECT count(*) FROM shield_event_logs WHERE parse_error IS NOT NULL'),
  );
  expect(malformed).toBeGreaterThan(0);
  expect(results.reduce((a, r) => a + r.malformed, 0)).toBe(
    malformed +
      Number(await db.value('SELECT count(*) FROM origin_error_logs WHERE parse_error IS NOT NULL')),
  );

  // The hourly rollups count every new entry once.
  const rollup = await db.value('SELECT sum(count) FROM shield_hourly WHERE shield_zone_id = 201');
  expect(rollup).toBe(await db.value('SELECT count(*) FROM shield_event_logs'));

  const again = await sync(engine, jobs);
  expect(again.map((o) => o.result!.newEntries)).toEqual([0, 0, 0, 0]);
  expect(again.map((o) => o.result!.entries)).toEqual(results.map((r) => r.entries));
  for (const day of days) await expectEqualsOracle(db, 'shield', 201, day);
  expect(await db.value('SELECT sum(count) FROM shield_hourly')).toBe(rollup);
}

/** Retryable API faults are retried and the result still equals the oracle (both stores). */
async function faultsStillOracle(store: StoreKind, pageThreads: number) {
  h = await storeHarness(store, {
    entriesPerDay: 1_500,
    pageSize: 300,
    faults: [
      { kind: '503', times: 1, operation: 'shieldEventLogs' },
      { kind: 'reset', times: 1, operation: 'originErrorLogs' },
      { kind: 'truncate', rate: 0.2, operation: 'shieldEventLogs' },
    ],
  });
  const engine = await h.engine({ api: { retryAttempts: 8 }, worker: { pageThreads } });
  const outcomes = await sync(engine, [
    { source: 'shield', zone: 201, day: TODAY },
    { source: 'origin', zone: 101, day: TODAY },
  ]);
  expect(outcomes.map((o) => o.error)).toEqual([undefined, undefined]);
  const db = await h.reader();
  await expectEqualsOracle(db, 'shield', 201, TODAY);
  await expectEqualsOracle(db, 'origin', 101, TODAY);
  expect(h.sim.stats.faults['503']).toBeGreaterThan(0);
  expect(h.sim.stats.faults.reset).toBe(1);
}

// Once with Shield passes on a page thread (the default on two cores), once all on the main thread.
describe.each([1, 0])('ingestion, pageThreads %i', (pageThreads) => {
  const worker = { pageThreads };

  it('a full sync equals the oracle exactly, and a re-sync adds nothing', () =>
    fullSyncThenResync('SQLite', pageThreads));

  it('a day outside the Shield window is marked expired, not failed', async () => {
    h = await harness({ entriesPerDay: 10 });
    const engine = await h.engine({ worker });
    const old = addDays(TODAY, -5);
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 201, day: old }]);
    expect(outcome!.result).toMatchObject({ state: 'expired', entries: 0 });
    const row = (await engine.store.ledger.get({ source: 'shield', zone: 201, day: old }))!;
    expect(row.state).toBe('expired');
    expect(row.last_error).toContain('retention window');
  });

  // The page that reveals a paging anomaly used to be thrown away and the day failed for good: the page
  // is now stored, and the day ends `incomplete`, for the next plan to fetch again.
  it('a looping continuation token: the pages are stored, the looping one too, and the day is incomplete', async () => {
    h = await harness({ entriesPerDay: 3_000, pageSize: 500, faults: [{ kind: 'loop', afterPage: 3 }] });
    const engine = await h.engine({ worker });
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 201, day: TODAY }]);
    expect(outcome!.error).toBeUndefined();
    expect(outcome!.result).toMatchObject({
      outcome: 'incomplete',
      state: 'incomplete',
      pages: 3,
      entries: 1500,
    });
    expect(outcome!.result!.error).toMatch(
      /continuation token repeats after page 3 .*3 pages fetched are stored/,
    );
    const row = (await engine.store.ledger.get({ source: 'shield', zone: 201, day: TODAY }))!;
    expect(row).toMatchObject({
      state: 'incomplete',
      next_token: null,
      entries: 1500,
      archived_entries: 1500,
    });
    expect(row.last_error).toMatch(/looping/);
    expect(h.db().prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBe(1500);
  });

  it('an empty page that still claims more data: the pages are stored and the day is incomplete', async () => {
    h = await harness({
      entriesPerDay: 3_000,
      pageSize: 500,
      faults: [{ kind: 'empty-more', afterPage: 2 }],
    });
    const engine = await h.engine({ worker });
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 201, day: TODAY }]);
    expect(outcome!.result).toMatchObject({ outcome: 'incomplete', pages: 2, entries: 500 });
    expect(outcome!.result!.error).toMatch(/page 2 is empty but claims more data/);
  });

  it('the page cap stops a runaway day after storing its pages', async () => {
    h = await harness({ entriesPerDay: 3_000, pageSize: 100 });
    const engine = await h.engine({ api: { pageCap: 4 }, worker });
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 201, day: TODAY }]);
    expect(outcome!.result).toMatchObject({ outcome: 'incomplete', state: 'incomplete', entries: 400 });
    expect(outcome!.result!.error).toMatch(/reached the page cap of 4 pages/);
    expect(h.db().prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBe(400);
  });

  it('retryable API faults are retried and the result still equals the oracle', () =>
    faultsStillOracle('SQLite', pageThreads));

  it('an unknown shield zone fails at once (no retries) with the API’s reason', async () => {
    h = await harness({ entriesPerDay: 10, shieldZones: [201] });
    const engine = await h.engine({ shieldZones: [201, 999], worker });
    const before = h.sim.stats.requests;
    const [outcome] = await sync(engine, [{ source: 'shield', zone: 999, day: TODAY }]);
    expect(outcome!.error).toMatch(/not_found_or_unauthorised_access\.shieldzone/);
    expect(h.sim.stats.requests - before).toBe(1);
    expect((await engine.store.ledger.get({ source: 'shield', zone: 999, day: TODAY }))!.state).toBe(
      'failed',
    );
  });
});

// The same acceptance on PostgreSQL (the SQLite runs are above, with and without a page thread).
describePostgres('ingestion', (store) => {
  describe.each([1, 0])('pageThreads %i', (pageThreads) => {
    it('a full sync equals the oracle exactly, and a re-sync adds nothing', () =>
      fullSyncThenResync(store, pageThreads));
    it('retryable API faults are retried and the result still equals the oracle', () =>
      faultsStillOracle(store, pageThreads));
  });
});
