// The worker's compact job (HistoryRunner.compact) when another holder keeps a day's history lease: a
// worker killed mid-compaction or mid-pruning leaves its lease until it runs out, and the job BullMQ hands
// to another worker then finds the day busy. The job must come back (LeaseBusyError: the runtime delays it
// and tries again) rather than end as done, or the day waits for the next sweep, as long as
// schedule.refreshEvery (an hour by default). Found by the two-workers-history fault scenario.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LeaseBusyError } from '../../src/errors/index.js';
import { HistoryRunner } from '../../src/history/history-runner.js';
import { dayDir } from '../../src/history/layout.js';
import { silentLogger } from '../../src/logger.js';
import type { DayKey } from '../../src/store/store.js';
import { openSqlite, storeOriginPass, tableRows, type OpenedStore } from '../support/page-store.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 5 * 86_400_000;
const LEASE_MS = 8_000;

let s: OpenedStore | undefined;
let root: string | undefined;
let runner: HistoryRunner | undefined;
afterEach(async () => {
  await runner?.close();
  await s?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const entry = (i: number) =>
  JSON.stringify({ logId: `o-${i}`, timestamp: DAY_START + i * 1000, log: '{}', labels: {} });

/**
 * Opens a SQLite store and a history root, with one origin zone-day of `n` entries stored and complete
 * (`complete` false: stored, its ledger not finished).
 */
async function settledDay(
  zone: number,
  n: number,
  now: () => number,
  complete = true,
): Promise<{ day: DayKey; s: OpenedStore; root: string }> {
  const opened = (s = await openSqlite(now));
  const dir = (root = mkdtempSync(join(tmpdir(), 'edgelog-runner-')));
  const day: DayKey = { source: 'origin', zone, day: DAY };
  await storeOriginPass(
    opened.store,
    day,
    Array.from({ length: n }, (_, i) => entry(i)),
    NOW,
    600,
  );
  if (complete) await opened.store.ledger.finish(day, 'values-test', 'complete', NOW, NOW);
  return { day, s: opened, root: dir };
}

/** A runner on `s`'s store and `root`, as the worker makes one; `opts` changes what a test needs. */
function runnerOn(
  s: OpenedStore,
  root: string,
  now: () => number,
  opts: Partial<ConstructorParameters<typeof HistoryRunner>[0]> = {},
): HistoryRunner {
  return new HistoryRunner({
    store: s.store,
    root,
    hotDays: null,
    originLookbackDays: 1,
    leaseMs: LEASE_MS,
    owner: 'worker',
    now,
    logger: silentLogger(),
    ...opts,
  });
}

it('a compact job that finds the day leased by another holder comes back, and does the day once the lease is out', async () => {
  let clock = NOW;
  const { day, s, root } = await settledDay(11, 50, () => clock);
  runner = runnerOn(s, root, () => clock, { hotDays: 0, owner: 'survivor' });
  // A worker killed while compacting the day: its lease stays until it runs out.
  expect(await s.store.history.claim(day, 'killed-worker', clock, LEASE_MS)).toBe(true);
  await expect(runner.compact(day)).rejects.toBeInstanceOf(LeaseBusyError);
  expect((await s.store.history.list())[0]!.compacted_at).toBeNull();

  clock += LEASE_MS + 1;
  expect(await runner.compact(day)).toMatchObject({ outcome: 'compacted', entries: 50 });

  expect((await s.store.history.list())[0]!.pruned_at).not.toBeNull();
  expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 11')).toEqual([]);
});

it('a compact job that finds a day due for pruning leased by another holder comes back too', async () => {
  let clock = NOW;
  const { day, s, root } = await settledDay(12, 50, () => clock);
  // Compacted, its rows kept (hotDays null); then a worker that prunes it is killed mid-way.
  const keeper = runnerOn(s, root, () => clock, { owner: 'survivor' });
  expect(await keeper.compact(day)).toMatchObject({ outcome: 'compacted', entries: 50 });
  await keeper.close();
  runner = runnerOn(s, root, () => clock, { hotDays: 0, owner: 'survivor' });
  expect(await s.store.history.claim(day, 'killed-worker', clock, LEASE_MS)).toBe(true);
  await expect(runner.compact(day)).rejects.toBeInstanceOf(LeaseBusyError);
  expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 12')).toHaveLength(50);
  clock += LEASE_MS + 1;
  expect(await runner.compact(day)).toMatchObject({
    outcome: 'not-settled',
    pruned: { days: 1, entries: 50 },
  });
  expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 12')).toEqual([]);
});

// Found by the two-workers-history fault scenario on PostgreSQL (seed 607779445): one worker's first flush
// held the flush lease while the other's compact job ran; its own flush was 'busy', and the merge, which
// merges parts only, recorded the day with 0 of its 2,000 entries, so that pruning refused it for good.
it('a compact job while another worker holds the flush lease comes back, and records the day once its rows are in parts', async () => {
  let clock = NOW;
  const { day, s, root } = await settledDay(14, 40, () => clock);
  runner = runnerOn(s, root, () => clock, { hotDays: 0 });
  expect(await s.store.history.flush.claim('other-worker', clock, LEASE_MS)).toBe(true);
  await expect(runner.compact(day)).rejects.toBeInstanceOf(LeaseBusyError);
  expect((await s.store.history.list()).filter((d) => d.compacted_at !== null)).toEqual([]);
  clock += LEASE_MS + 1;
  expect(await runner.compact(day)).toMatchObject({ outcome: 'compacted', entries: 40 });
  expect((await s.store.history.list())[0]).toMatchObject({ entries: 40, ledger_entries: 40 });
});

// The job re-plans its day before compacting it: the sweep made the job from an earlier plan, and by the
// time it runs the day may be done by another worker, or (a job enqueued by hand, a stale one) not be
// settled at all. Removing that check failed no test before these two.
it('a compact job for a day that is not settled (still fetched, its ledger not complete) leaves it alone', async () => {
  const clock = NOW;
  const { day, s, root } = await settledDay(13, 30, () => clock, false);
  // The day is 5 days old: the scheduler still fetches origin days up to 10 days back.
  runner = runnerOn(s, root, () => clock, { hotDays: 0, originLookbackDays: 10 });
  expect(await runner.compact(day)).toMatchObject({ outcome: 'not-settled', entries: 0 });
  expect((await s.store.history.list()).filter((d) => d.compacted_at !== null)).toEqual([]);
  // Flushed into a part (the job flushes first), but not merged: no record.
  expect(readdirSync(dayDir(root, 'origin_error_logs', day.zone, day.day))).toHaveLength(1);
  expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 13')).toHaveLength(30);
});

it('a compact job for a day already compacted, its ledger unchanged since, does not publish it again', async () => {
  const clock = NOW;
  const { day, s, root } = await settledDay(14, 30, () => clock);
  runner = runnerOn(s, root, () => clock);
  expect(await runner.compact(day)).toMatchObject({ outcome: 'compacted', entries: 30 });
  const dir = dayDir(root, 'origin_error_logs', day.zone, day.day);
  const merged = readdirSync(dir);
  expect(merged).toHaveLength(1);
  expect(await runner.compact(day)).toMatchObject({ outcome: 'not-settled', entries: 0 });
  // Not written again: the same part, alone.
  expect(readdirSync(dir)).toEqual(merged);
});

it('flushes requested while a flush waits its turn join it: one flush covers them all, rows stored before each included', async () => {
  const { s, root } = await settledDay(12, 40, () => NOW, false);
  runner = runnerOn(s, root, () => NOW);
  let flushes = 0; // each flush reads the store's horizon once
  const flush = s.store.history.flush;
  const horizon = flush.horizon.bind(flush);
  flush.horizon = () => {
    flushes++;
    return horizon();
  };
  // Day jobs ending together: each asks for the flush of the rows it stored.
  const results = await Promise.all([runner.flush(), runner.flush(), runner.flush()]);
  expect(results.map((r) => r.outcome)).toEqual(['flushed', 'flushed', 'flushed']);
  expect(new Set(results).size).toBe(1);
  expect(results[0].rows).toBe(40);
  expect(flushes).toBe(1);
  // Asked again once it has run, a flush runs again.
  expect((await runner.flush()).outcome).toBe('nothing');
  expect(flushes).toBe(2);
});
