// What the SQLite store does beyond the conformance suite: opening by configuration, and a report's
// snapshot that spans awaits while the worker keeps storing pages on the same archive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dialectOf, openStore } from '../../src/store/open-store.js';
import { originBatch } from '../../src/store/rows.js';
import type { ArchiveStore } from '../../src/store/store.js';

const DAY = '2026-11-20';
const T = Date.parse(`${DAY}T10:00:00Z`);

let dir: string | undefined;
let store: ArchiveStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function row(i: number) {
  return {
    logId: `l-${i}`,
    timestamp: T + i,
    requestUrl: null,
    message: null,
    errorCode: 'e',
    statusCode: 502,
    serverZone: null,
    log: null,
    labels: null,
    parseError: null,
  };
}

describe('SqliteStore', () => {
  it('is chosen for a path, PostgreSQL for a postgres:// or postgresql:// URL', () => {
    expect(dialectOf({ url: null })).toBe('sqlite');
    expect(dialectOf({ url: undefined })).toBe('sqlite');
    expect(dialectOf({ url: 'postgres://u@h/db' })).toBe('postgres');
    expect(dialectOf({ url: 'postgresql://u@h/db' })).toBe('postgres');
  });

  it('stores pages while a report snapshot is open across awaits', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-sqlite-store-'));
    store = await openStore({ path: join(dir, 'a.db') });
    const s = store;
    const key = { source: 'origin' as const, zone: 1, day: DAY };
    const claim = await s.ledger.claim(key, 'me', T, 60_000, true);
    expect(claim.kind).toBe('claimed');
    const page = (from: number) =>
      ({
        source: 'origin',
        batch: originBatch([row(from), row(from + 1)]),
        page: 0,
        nextToken: null,
        pages: 1,
      }) as const;
    await s.storePage(key, 'me', page(0), T, 60_000);
    const seen = await s.reports.snapshot(async (reads) => {
      const before = await reads.zoneTotals('origin', { zone: 1, startMs: 0, endMs: T * 2 });
      // The worker goes on meanwhile: its page commits, and the snapshot does not see it.
      const stored = await s.storePage(key, 'me', page(2), T, 60_000);
      expect(stored).toMatchObject({ kind: 'stored', inserted: 2 });
      const after = await reads.zoneTotals('origin', { zone: 1, startMs: 0, endMs: T * 2 });
      return { before, after };
    });
    expect(seen.before).toEqual([{ zone: 1, count: 2 }]);
    expect(seen.after).toEqual([{ zone: 1, count: 2 }]);
    await s.reports.snapshot(async (reads) =>
      expect(await reads.zoneTotals('origin', { zone: 1, startMs: 0, endMs: T * 2 })).toEqual([
        { zone: 1, count: 4 },
      ]),
    );
  });
});
