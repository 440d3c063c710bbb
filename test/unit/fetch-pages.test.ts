// The Shield pass pipeline with an in-memory API: the order of requests, guesses ahead of decoding,
// and what happens to a wrong guess. (Over HTTP, test/integration/ingest.test.ts runs the same code.)
import { describe, expect, it } from 'vitest';
import { shieldPages, type FetchClient } from '../../src/ingest/fetch-pages.js';
import type { Day } from '../../src/time/utc-day.js';

const DAY = '2026-11-22' as Day;

interface Served {
  /** Page bodies by the token they answer. */
  pages: Record<string, string>;
  /** Every request, in order, with its signal. */
  requests: Array<{ token: string; signal: AbortSignal }>;
}

function page(ids: string[], next: string | null, tail = ''): string {
  const logs = ids.map((id, i) => ({ logId: id, timestamp: 1_763_769_600_000 + i, log: '{}', labels: null }));
  return `{"logs":${JSON.stringify(logs)},"hasMoreData":${next !== null},"continuationToken":${JSON.stringify(next)}${tail}}`;
}

/** Answers on a later turn of the event loop, like a socket; an aborted request rejects. */
function client(served: Served): FetchClient {
  return {
    shieldEventLogsWith: async (_zone: number, _day: Day, token: string, decode, call) => {
      const signal = call?.signal ?? new AbortController().signal;
      served.requests.push({ token, signal });
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new Error('aborted');
      const text = served.pages[token];
      if (text === undefined) throw new Error(`no page for token ${token}`);
      return decode(new Uint8Array(Buffer.from(text)).buffer);
    },
    originErrorLogsStream: () => Promise.reject(new Error('not used')),
  };
}

const query = { zone: 201, day: DAY, startToken: '', donePages: 0, pageCap: 100 };

describe('shieldPages', () => {
  it('yields every page in order and requests ahead while the caller holds a page', async () => {
    const served: Served = {
      pages: {
        '': page(['a', 'b'], 't1'),
        t1: page(['c'], 't2'),
        t2: page(['d'], 't3'),
        t3: page(['e'], null),
      },
      requests: [],
    };
    const seen: string[] = [];
    const requestedWhileHeld: number[] = [];
    for await (const p of shieldPages(client(served), query)) {
      seen.push(...p.batch.logId);
      // Give the guessed requests time to go out while this page is "being stored".
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      requestedWhileHeld.push(served.requests.length);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(served.requests.map((r) => r.token)).toEqual(['', 't1', 't2', 't3']);
    // Holding page 1, pages 2 and 3 were already requested (two ahead); no request was repeated.
    expect(requestedWhileHeld[0]).toBe(3);
    expect(requestedWhileHeld.at(-1)).toBe(4);
  });

  it('drops a wrong guess and requests the right page: nothing lost, nothing twice', async () => {
    // Page 1's raw bytes end with a nested "continuationToken" that JSON.parse does not take as the
    // page's own (it belongs to an inner object), so the guess says "wrong" and the page says "t1".
    const served: Served = {
      pages: {
        '': page(['a'], 't1', ',"errorResponse":{"hasMoreData":true,"continuationToken":"wrong"}'),
        wrong: page(['x'], null),
        t1: page(['b'], null),
      },
      requests: [],
    };
    const seen: string[] = [];
    for await (const p of shieldPages(client(served), query)) seen.push(...p.batch.logId);
    expect(seen).toEqual(['a', 'b']);
    const wrong = served.requests.find((r) => r.token === 'wrong');
    expect(wrong?.signal.aborted).toBe(true);
    expect(served.requests.filter((r) => r.token === 't1')).toHaveLength(1);
  });

  it('aborts the requests ahead when the caller stops early', async () => {
    const served: Served = {
      pages: { '': page(['a'], 't1'), t1: page(['b'], 't2'), t2: page(['c'], null) },
      requests: [],
    };
    for await (const p of shieldPages(client(served), query)) {
      expect(p.page).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      break;
    }
    expect(served.requests.length).toBeGreaterThan(1);
    expect(served.requests.slice(1).every((r) => r.signal.aborted)).toBe(true);
  });
});
