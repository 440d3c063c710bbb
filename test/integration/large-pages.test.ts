// A Shield page within api.maxResponseBytes whose decoded form is many times its bytes (tiny entries: a
// 300 MiB page of them ran the page thread out of memory, retried five times, then failed the day).
// Here the mechanism at a size `npm test` affords: a page thread with a 64 MB heap, and a page that would
// take several times that decoded whole. `bench/large-page.ts` runs the full size.
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseError } from '../../src/errors/index.js';
import { ownerId } from '../../src/ingest/day-ingestor.js';
import { InterruptedError } from '../../src/errors/index.js';
import { PageThreads } from '../../src/ingest/page-threads.js';
import { silentLogger } from '../../src/logger.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, TODAY, type Harness } from '../support/harness.js';
import { testIngestor, type TestIngestor } from '../support/ingestor.js';

const YESTERDAY = addDays(TODAY, -1);
const shieldDay = { source: 'shield' as const, zone: 201, day: YESTERDAY };

let h: Harness | undefined;
let t: TestIngestor | undefined;
let threads: PageThreads | undefined;
afterEach(async () => {
  await t?.close();
  await threads?.close();
  await h?.close();
  t = threads = h = undefined;
});

describe('a Shield page far larger decoded than on the wire', () => {
  it('is stored in parts on a page thread whose heap could not hold it decoded whole', async () => {
    const entries = 300_000; // about 21 MiB of JSON; decoded whole, about 150 MB
    h = await harness({ entriesPerDay: entries, pageSize: entries, tinyEntries: true });
    const config = h.config();
    threads = new PageThreads({
      threads: 1,
      api: config.api,
      logger: silentLogger(),
      maxOldGenerationSizeMb: 64,
    });
    t = await testIngestor(h, { deps: { pages: threads.shieldPages.bind(threads) } });
    const r = await t.ingestor.run(shieldDay, { owner: ownerId('job-1') });
    expect(r).toMatchObject({
      outcome: 'complete',
      pages: 1,
      entries,
      newEntries: entries,
      archived: entries,
    });
    const row = t.archive.ledger.get(shieldDay)!;
    expect(row).toMatchObject({ pages: 1, entries, archived_entries: entries, next_token: null });
    expect(t.archive.db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBe(entries);
  });

  // Parts commit one by one: a pass stopped between them resumes on their page, whose counts wait for its
  // last part, so the page is counted once however often it was begun.
  it('a pass stopped between the parts of a page resumes on that page and counts it once', async () => {
    // Three pages of 3,000 entries, each stored in parts of 500 (every page counts as large here).
    h = await harness({ entriesPerDay: 9_000, pageSize: 3_000 });
    const stop = new AbortController();
    let parts = 0;
    const metrics = { page: () => void (++parts === 6 + 3 && stop.abort()) };
    const deps = { metrics, wholePageBytes: 1, chunkRows: 500 };
    t = await testIngestor(h, { deps });
    const first = await t.ingestor.run(shieldDay, { owner: ownerId('job-1'), signal: stop.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(InterruptedError);
    // Page 1 whole and half of page 2 are stored; the checkpoint is page 2, and only page 1 is counted.
    const paused = t.archive.ledger.get(shieldDay)!;
    expect(paused).toMatchObject({ state: 'running', pages: 1, entries: 3_000, archived_entries: 4_500 });
    expect(paused.next_token).not.toBeNull();

    const again = await t.ingestor.run(shieldDay, { owner: ownerId('job-2') });
    expect(again).toMatchObject({
      outcome: 'complete',
      resumed: true,
      pages: 3,
      entries: 9_000,
      archived: 9_000,
    });
    expect(again.newEntries).toBe(9_000);
  });

  it('above api.maxResponseBytes fails, saying which setting bounds it', async () => {
    h = await harness({ entriesPerDay: 20_000, pageSize: 20_000, tinyEntries: true }); // about 1.4 MiB
    t = await testIngestor(h, { config: { api: { maxResponseBytes: 2 ** 20 } } });
    const err = await t.ingestor.run(shieldDay, { owner: ownerId('job-1') }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as Error).message).toMatch(/larger than api\.maxResponseBytes \(1048576 bytes\)/);
  });
});
