// Defects found by review, each against the simulator over loopback, a real archive and a real page
// thread: checkpoints kept through retryable failures, passes closed when storing fails, complete days
// that stay complete, leases renewed while a request is in flight, and the request deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { TimeoutError } from '../../src/errors/index.js';
import { ownerId } from '../../src/ingest/day-ingestor.js';
import { LeaseBusyError } from '../../src/errors/index.js';
import { silentLogger } from '../../src/logger.js';
import { addDays, DAY_MS } from '../../src/time/utc-day.js';
import { harness, NOW, TODAY } from '../support/harness.js';
import { ingestorPerTest, testIngestor } from '../support/ingestor.js';

const s = ingestorPerTest();

const YESTERDAY = addDays(TODAY, -1);
const shieldDay = { source: 'shield' as const, zone: 201, day: YESTERDAY };
const count = (table: string) =>
  s.t.archive.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

async function until(what: string, fn: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const start = Date.now(); !fn(); await sleep(20)) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('checkpoints', () => {
  // The last attempt's retryable failure used to drop the checkpoint: a large day on a flaky API then
  // started over from page one every time, and might never finish inside the API's 72 hours.
  it('a retryable failure on the final attempt marks the day failed but keeps its checkpoint', async () => {
    s.h = await harness({ entriesPerDay: 4_000, pageSize: 250, latencyMs: 20 });
    s.t = await testIngestor(s.h, { config: { api: { retryAttempts: 2 } } });
    const run = s.t.ingestor.run(shieldDay, { owner: ownerId('job-1'), finalAttempt: true });
    const failed = run.then(
      () => null,
      (err: unknown) => err,
    );
    await until('a few pages', () => (s.t.archive.ledger.get(shieldDay)?.pages ?? 0) >= 3);
    s.h.sim.setFaults([{ kind: '503', operation: 'shieldEventLogs' }]);
    const err = await failed;
    expect(err).toMatchObject({ status: 503, retryable: true });
    const row = s.t.archive.ledger.get(shieldDay)!;
    expect(row.state).toBe('failed');
    expect(row.next_token).not.toBeNull();
    expect(row.last_error).toMatch(/HTTP 503/);
    const stored = row.pages;
    expect(count('shield_event_logs')).toBe(stored * 250);

    s.h.sim.setFaults([]);
    const again = await s.t.ingestor.run(shieldDay, { owner: ownerId('job-2') });
    expect(again).toMatchObject({ outcome: 'complete', state: 'complete', resumed: true });
    expect(again.pages).toBe(16);
    expect(count('shield_event_logs')).toBe(4_000);
    expect(s.t.archive.ledger.get(shieldDay)!.archived_entries).toBe(4_000);
  });
});

describe.each([1, 0])('a store failure, pageThreads %i', (pageThreads) => {
  // A page transaction that throws (SQLITE_FULL here, from a page limit on the writer) used to leave the
  // pass open: the page thread's job waited for room forever, holding decoded pages.
  it.each(['shield', 'origin'] as const)(
    'closes the %s pass, keeps the checkpoint, and resumes',
    async (source) => {
      s.h = await harness({ entriesPerDay: 12_000, pageSize: 500 });
      s.t = await testIngestor(s.h, { pageThreads, deps: { chunkRows: 500 } });
      const key = { source, zone: source === 'shield' ? 201 : 101, day: YESTERDAY };
      const db = s.t.archive.db;
      const pagesNow = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pagesNow + 40}`);
      const err = await s.t.ingestor.run(key, { owner: ownerId('job-1') }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'SQLITE_FULL' });
      if (s.t.threads)
        await until('the page thread to drop the job', () => s.t.threads!.activeJobs() === 0, 3_000);
      const row = s.t.archive.ledger.get(key)!;
      expect(row.state).toBe('running'); // retryable: a later attempt resumes
      expect(row.archived_entries).toBe(
        count(source === 'shield' ? 'shield_event_logs' : 'origin_error_logs'),
      );
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

      db.pragma('max_page_count = 1073741823');
      const again = await s.t.ingestor.run(key, { owner: ownerId('job-2') });
      expect(again.outcome).toBe('complete');
      expect(again.archived).toBe(12_000);
      expect(count(source === 'shield' ? 'shield_event_logs' : 'origin_error_logs')).toBe(12_000);
    },
  );
});

describe('a complete day stays complete', () => {
  // A later run that failed or expired used to overwrite the state and counts of a complete day.
  it('through a re-run that meets the end of the API window, and one that fails', async () => {
    let clock = NOW;
    s.h = await harness({ entriesPerDay: 1_000, pageSize: 250, now: () => clock });
    s.t = await testIngestor(s.h, { config: { api: { retryAttempts: 2 } } });
    const first = await s.t.ingestor.run(shieldDay, { owner: ownerId('job-1') });
    expect(first).toMatchObject({ outcome: 'complete', state: 'complete', archived: 1_000 });
    const done = s.t.archive.ledger.get(shieldDay)!;

    clock = NOW + 5 * DAY_MS; // the API forgot the day
    const expired = await s.t.ingestor.run(shieldDay, { owner: ownerId('job-2') });
    expect(expired).toMatchObject({ outcome: 'expired', state: 'complete', archived: 1_000 });
    const afterExpiry = s.t.archive.ledger.get(shieldDay)!;
    expect(afterExpiry).toMatchObject({
      state: 'complete',
      covered_until: done.covered_until,
      finished_at: done.finished_at,
      archived_entries: 1_000,
    });
    expect(afterExpiry.last_error).toMatch(/retention window/);

    clock = NOW;
    s.h.sim.setFaults([{ kind: '503' }]);
    await expect(
      s.t.ingestor.run(shieldDay, { owner: ownerId('job-3'), finalAttempt: true }),
    ).rejects.toThrow(/HTTP 503/);
    expect(s.t.archive.ledger.get(shieldDay)).toMatchObject({
      state: 'complete',
      archived_entries: 1_000,
      covered_until: done.covered_until,
    });
    expect(count('shield_event_logs')).toBe(1_000);
  });

  it('a partial day stays partial through a failed re-run, and expires when the API forgets it', async () => {
    let clock = NOW;
    s.h = await harness({ entriesPerDay: 600, pageSize: 200, now: () => clock });
    s.t = await testIngestor(s.h, { config: { api: { retryAttempts: 2 } } });
    const today = { ...shieldDay, day: TODAY };
    expect((await s.t.ingestor.run(today, { owner: ownerId('job-1') })).state).toBe('partial');
    s.h.sim.setFaults([{ kind: '500' }]);
    await expect(s.t.ingestor.run(today, { owner: ownerId('job-2'), finalAttempt: true })).rejects.toThrow();
    expect(s.t.archive.ledger.get(today)!.state).toBe('partial');
    s.h.sim.setFaults([]);
    clock = NOW + 5 * DAY_MS;
    expect((await s.t.ingestor.run(today, { owner: ownerId('job-3') })).state).toBe('expired');
  });
});

describe('leases', () => {
  // The lease used to run out while one slow request was in flight (60 s by default; a page with its
  // retries can take minutes), letting a second worker take a day that was still being fetched.
  it('is renewed while a request is in flight, so nobody takes a day being fetched', async () => {
    s.h = await harness({ entriesPerDay: 400, pageSize: 200, latencyMs: 1_500 });
    const deps = { leaseMs: 300, now: Date.now };
    s.t = await testIngestor(s.h, { deps });
    const other = await testIngestor(s.h, { deps });
    try {
      const stop = new AbortController();
      const first = s.t.ingestor.run(shieldDay, { owner: ownerId('job-1'), signal: stop.signal });
      first.catch(() => {});
      // The day is claimed before its first request goes out: once that request has reached the
      // simulator, three lease lengths from then leave the first lease long run out, however slowly
      // this machine got there, while the request (1.5 s) is still in flight.
      await until('the first request to be in flight', () => s.h.sim.stats.requests >= 1);
      await sleep(900);
      await expect(other.ingestor.run(shieldDay, { owner: ownerId('job-2') })).rejects.toBeInstanceOf(
        LeaseBusyError,
      );
      stop.abort();
      await first.catch(() => {});
    } finally {
      await other.close();
    }
  });
});

describe('the request deadline', () => {
  // Its expiry used to be a permanent TimeoutError: the day failed at once and lost its checkpoint.
  it('is a retryable TimeoutError', async () => {
    s.h = await harness({ entriesPerDay: 10, faults: [{ kind: 'slow', delayMs: 5_000 }] });
    const config = s.h.config({
      api: { requestDeadline: '2s', headersTimeout: '1500ms', bodyTimeout: '1s', connectTimeout: '1s' },
    });
    const api = createApiClient(config.api, silentLogger());
    try {
      const err = await api.client.shieldEventLogs(201, TODAY).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err).toMatchObject({ retryable: true });
      // The deadline ends it: while the attempt waits ("request deadline"), or, on a machine slow enough
      // that the header timeout (1.5 s) comes first, by refusing the retry that would pass it.
      expect((err as Error).message).toMatch(/request deadline|would pass the 2000 ms deadline/);
    } finally {
      await api.close();
    }
  });
});
