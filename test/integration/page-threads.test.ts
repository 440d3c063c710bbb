// Shield passes on a page thread, over loopback against the simulator: the same pages as on the main
// thread, the thread's log lines in the main logger, typed errors, and a clean stop.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { InlineApiError } from '../../src/errors/index.js';
import { shieldPages, streamOriginDay, type ShieldPageResult } from '../../src/ingest/fetch-pages.js';
import { PageThreads } from '../../src/ingest/page-threads.js';
import { createApiClient } from '../../src/api/index.js';
import { createLogger, silentLogger } from '../../src/logger.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, TODAY, type Harness } from '../support/harness.js';

let h: Harness | undefined;
let threads: PageThreads | undefined;
afterEach(async () => {
  await threads?.close();
  await h?.close();
});

const query = (zone = 201) => ({ zone, day: TODAY, startToken: '', donePages: 0, pageCap: 1000 });

async function collect(pages: AsyncGenerator<ShieldPageResult, void>) {
  const out: Array<{ page: number; token: string; nextToken: string | null; ids: string[] }> = [];
  for await (const p of pages)
    out.push({ page: p.page, token: p.token, nextToken: p.nextToken, ids: p.batch.logId });
  return out;
}

function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

describe('page threads', () => {
  it('serve the same pages as the main thread, and relay the thread’s log lines', async () => {
    h = await harness({
      entriesPerDay: 2_000,
      pageSize: 300,
      faults: [{ kind: '503', times: 1, operation: 'shieldEventLogs' }],
    });
    const { lines, logger } = captured();
    threads = new PageThreads({ threads: 1, api: h.config().api, logger });
    const viaThread = await collect(threads.shieldPages(query()));
    const api = createApiClient(h.config().api, silentLogger());
    const onMain = await collect(shieldPages(api.client, query()));
    await api.close();
    expect(viaThread).toEqual(onMain);
    expect(viaThread.flatMap((p) => p.ids)).toHaveLength(h.sim.count('shield', 201, TODAY));
    // The 503 was retried on the thread, and said so (info: retries are routine) through the main thread's logger.
    expect(lines.some((l) => l.msg === 'request failed; retrying' && l.level === 30)).toBe(true);
  });

  it('stream an origin day in the same batches, starting over when a read breaks', async () => {
    h = await harness({
      entriesPerDay: 3_000,
      faults: [{ kind: 'truncate', times: 1, operation: 'originErrorLogs' }],
    });
    threads = new PageThreads({ threads: 1, api: h.config().api, logger: silentLogger() });
    const q = { zone: 101, day: TODAY, batchSize: 400 };
    let ids: string[] = [];
    let restarts = 0;
    let firsts = 0;
    await threads.streamOriginDay(
      q,
      (batch, first) => {
        ids.push(...batch.logId);
        if (first) firsts++;
      },
      () => {
        restarts++;
        ids = [];
      },
    );
    expect(restarts).toBe(1);
    expect(h.sim.stats.faults.truncate).toBe(1);
    const api = createApiClient(h.config().api, silentLogger());
    const onMain: string[] = [];
    await streamOriginDay(
      api.client,
      q,
      (batch) => void onMain.push(...batch.logId),
      () => {},
    );
    await api.close();
    expect(ids).toEqual(onMain);
    expect(ids).toHaveLength(h.sim.count('origin', 101, TODAY));
    expect(firsts).toBe(2); // once per attempt: the ledger counts each call
  });

  // A page of 46 MB is decoded and handed over in parts of 1,000 entries (a page from 16 MiB on is).
  it('take a large page (60,000 entries in one answer) in parts, counted whole with the last', async () => {
    h = await harness({ entriesPerDay: 60_000, pageSize: 60_000 });
    threads = new PageThreads({ threads: 1, api: h.config().api, logger: silentLogger() });
    const yesterday = addDays(TODAY, -1); // complete, so the whole 60,000
    const parts: ShieldPageResult[] = [];
    for await (const p of threads.shieldPages({ ...query(), day: yesterday })) parts.push(p);
    expect(parts.map((p) => p.batch.logId.length)).toEqual(parts.map(() => 1000));
    expect(parts.map((p) => p.page)).toEqual(parts.map(() => 1));
    expect(parts.slice(0, -1).every((p) => p.part?.more === true)).toBe(true);
    expect(parts.at(-1)!.part).toEqual({
      more: false,
      counts: { entries: 60_000, malformed: 0, quarantined: 0 },
    });
    expect(new Set(parts.flatMap((p) => p.batch.logId)).size).toBe(60_000);
  });

  it('rethrow the API’s refusal as the same typed error', async () => {
    h = await harness({ entriesPerDay: 10 });
    threads = new PageThreads({ threads: 1, api: h.config().api, logger: silentLogger() });
    const err = await collect(threads.shieldPages(query(999))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InlineApiError);
    expect(err).toMatchObject({ retryable: false });
    expect((err as InlineApiError).errorKey).toMatch(/not_found/);
  });

  it('say when they are ready, and when a thread could not start', async () => {
    h = await harness({ entriesPerDay: 10 });
    threads = new PageThreads({ threads: 2, api: h.config().api, logger: silentLogger() });
    expect(await threads.warm()).toBe(true);
    await threads.close();
    const { lines, logger } = captured();
    // A log level the thread's logger refuses: the thread dies while loading.
    const refused = Object.create(logger, { level: { value: 'no-such-level' } }) as typeof logger;
    threads = new PageThreads({ threads: 1, api: h.config().api, logger: refused });
    expect(await threads.warm()).toBe(false);
    expect(lines.some((l) => l.msg === 'a page thread stopped')).toBe(true);
  });

  it('stop a pass when the caller’s signal fires, and the pool closes', async () => {
    h = await harness({ entriesPerDay: 3_000, pageSize: 100 });
    threads = new PageThreads({ threads: 1, api: h.config().api, logger: silentLogger() });
    const controller = new AbortController();
    let taken = 0;
    const err = await (async () => {
      for await (const _ of threads.shieldPages(query(), controller.signal)) {
        if (++taken === 2) controller.abort(new Error('shutting down'));
      }
    })().catch((e: unknown) => e);
    expect(taken).toBe(2);
    expect(err).toMatchObject({ message: 'shutting down' });
    await threads.close();
    await expect(collect(threads.shieldPages(query()))).rejects.toThrow(/closed/);
  });
});
