// A page's commit, then its term merge (sqlite/terms.ts): when the merge fails (another process holds
// the write lock past the busy timeout), the page is still reported stored, the failure is logged, and the
// next merge counts its entries from the table, so term_hourly ends equal to a count from scratch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MERGE_AT } from '../../src/store/sqlite/terms.js';
import type { OriginRow } from '../../src/store/store.js';
import { DAY, NOW, originPage, originRows } from '../postgres/conformance.js';
import { termProblems } from '../support/term-backfill.js';

const LEASE = 60_000;

let dir: string | undefined;
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

// Three new path prefixes a row: every page makes new keys.
const distinct = (n: number, from: number): OriginRow[] =>
  originRows(n, from).map((r, k) => ({ ...r, requestUrl: `/a${from + k}/b/c${(from + k) % 5}` }));

const mergedThrough = (db: Db) =>
  db.prepare("SELECT merged_through FROM term_watermark WHERE source = 'origin'").pluck().get() as number;

describe('a term merge that fails after the page committed', () => {
  it('leaves the page stored (reported so), logged, and its counts to the next merge', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-term-merge-'));
    const path = join(dir, 'a.db');
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    const store = openSqliteStore(path, { logger });
    open.push(store);
    const key = { source: 'origin' as const, zone: 3, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = distinct(MERGE_AT + 2_000, 0);
    const pages = Math.floor(MERGE_AT / 1000); // the next page takes the unmerged entries to MERGE_AT
    for (let p = 0; p < pages; p++)
      await store.storePage(key, 'w1', originPage(rows.slice(p * 1000, (p + 1) * 1000)), NOW, LEASE);
    const other = openDatabase(path);
    open.push(other);
    expect(mergedThrough(other)).toBe(0);

    // Between the page's commit and its merge, another process takes the write lock and holds it past
    // the busy timeout.
    const terms = store.archive.origin.terms;
    const committed = terms.committed.bind(terms);
    terms.committed = () => {
      other.exec('BEGIN IMMEDIATE');
      try {
        committed();
      } finally {
        other.exec('ROLLBACK');
      }
    };
    store.archive.db.pragma('busy_timeout = 50');
    const page = rows.slice(pages * 1000, (pages + 1) * 1000);
    const stored = await store.storePage(key, 'w1', originPage(page), NOW, LEASE);
    expect(stored).toMatchObject({ kind: 'stored', inserted: 1000 });
    expect(mergedThrough(other)).toBe(0);
    expect((await store.ledger.get(key))?.entries).toBe((pages + 1) * 1000);
    expect(lines.filter((l) => l.includes('merging term counts after a page failed'))).toHaveLength(1);

    // The next page's merge counts what memory lost, from the table.
    terms.committed = committed;
    store.archive.db.pragma('busy_timeout = 5000');
    await store.storePage(key, 'w1', originPage(rows.slice((pages + 1) * 1000)), NOW, LEASE);
    expect(mergedThrough(other)).toBe(rows.length);
    expect(termProblems(path)).toEqual([]);
  });
});
