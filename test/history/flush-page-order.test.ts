// A flush reads a zone-day's rows of a batch range page by page, the cursor being the last row's
// (batch, id): on every store each row comes once, whatever the page size, with batches and ids past a
// power of ten. On PostgreSQL the page once sorted by its text columns (`SELECT batch::text, id::text …
// ORDER BY batch, id` names the output columns) while the cursor compared numbers: "1199" < "999", so a
// page from the middle of a batch skipped rows or read them again (history-job.test.ts: a merged part
// of 1,301 of a day's 1,500 entries).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyChecksum } from '../../src/history/checksum.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FlushCursor } from '../../src/store/history-store.js';
import type { ArchiveStore, DayKey } from '../../src/store/store.js';
import { DAY, NOW, shieldPage, shieldRows } from '../postgres/conformance.js';
import { createTestDatabase } from '../postgres/support/server.js';
import { flushPageKeys, shieldPartChecksum } from '../support/flush-page-keys.js';
import { describePostgres } from '../support/stores.js';

const PAGES = 12;
const ROWS = 11;
const KEY: DayKey = { source: 'shield', zone: 7, day: DAY };
// One timestamp, ids whose byte order and a language collation's differ: entry pages page by both.
const TIED: DayKey = { source: 'shield', zone: 8, day: DAY };
const TIED_IDS = ['a-1', 'A-2', 'b', 'B', 'é', 'e', '_z', 'Z', 'z-10', 'z-9', 'ß', 'ss'];
// Ids that hold a key frame's own bytes (':' and newlines), quotes, a BOM and multi-byte characters (no
// NUL: PostgreSQL's text cannot hold one; sqlite's own test has it).
const ODD: DayKey = { source: 'shield', zone: 9, day: DAY };
const ODD_IDS = ['a:b', 'new\nline', '12:x\n', 'é 日本 🙂', '\ufeffbom', 'q"uote \\ \r\t', ''];

function flushPaging(open: () => Promise<{ store: ArchiveStore; close: () => Promise<void> }>): void {
  let store: ArchiveStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await open());
    await store.ledger.claim(KEY, 'w1', NOW, 60_000, true);
    // Twelve batches (past 9) of eleven rows (ids past 99), one page each.
    for (let p = 0; p < PAGES; p++) {
      const page = shieldPage(shieldRows(ROWS, p * ROWS), p + 1, p + 1 < PAGES ? `t${p + 2}` : null);
      expect(await store.storePage(KEY, 'w1', page, NOW, 60_000)).toMatchObject({ inserted: ROWS });
    }
    await store.ledger.claim(TIED, 'w1', NOW, 60_000, true);
    const tied = shieldRows(TIED_IDS.length).map((r, i) => ({
      ...r,
      logId: TIED_IDS[i]!,
      timestamp: NOW - 1,
    }));
    await store.storePage(TIED, 'w1', shieldPage(tied, 1, null), NOW, 60_000);
  });
  afterAll(async () => close?.());

  it('frames odd keys as KeyChecksum hashes their values, counts the longest line in bytes, and the part verifies', async () => {
    await store.ledger.claim(ODD, 'w1', NOW, 60_000, true);
    const rows = shieldRows(ODD_IDS.length, 500).map((r, i) => ({
      ...r,
      logId: ODD_IDS[i]!,
      message: i === 3 ? '日'.repeat(200) : 'm',
    }));
    await store.storePage(ODD, 'w1', shieldPage(rows, 1, null), NOW, 60_000);
    const flush = store.history.flush;
    const page = await flush.page(
      'shield_event_logs',
      { zone: ODD.zone, day: DAY },
      1n,
      await flush.horizon(),
      null,
      100,
    );
    expect(page.rows).toBe(ODD_IDS.length);
    expect(
      flushPageKeys(page)
        .map((k) => k[2])
        .sort(),
    ).toEqual([...ODD_IDS].sort());
    if (!('longestBytes' in page)) throw new Error('a page of values, not of bytes');
    const lengths = Buffer.from(page.lines)
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => Buffer.byteLength(l));
    expect(lengths).toHaveLength(ODD_IDS.length);
    expect(page.longestBytes).toBe(Math.max(...lengths));
    const values = new KeyChecksum();
    for (const r of rows) values.add([BigInt(ODD.zone), BigInt(r.timestamp), r.logId]);
    // The store's framed keys hash as the values do, and as DuckDB reads them back from the file.
    expect(await shieldPartChecksum(page)).toBe(values.digest());
  });

  it.each([1, 5, 100])('entry pages of %i rows (the first flush) give each row once', async (limit) => {
    const seen: string[] = [];
    let after: [number, string] | null = null;
    // Bounded: a cursor that does not move on would page for ever.
    for (let n = 0; n <= TIED_IDS.length; n++) {
      const page = await store.history.entryPage(TIED, after, limit, null);
      if (page.keys.length === 0) break;
      seen.push(...page.keys.map((k) => String(k[2])));
      const last = page.keys[page.keys.length - 1]!;
      after = [Number(last[1]), String(last[2])];
    }
    expect(seen.sort()).toEqual([...TIED_IDS].sort());
  });

  it.each([1, 4, 10, 25, 1_000])(
    'pages of %i rows give each of the zone-day rows once, in (batch, id) order',
    async (limit) => {
      const flush = store.history.flush;
      const horizon = await flush.horizon();
      const seen: string[] = [];
      let after: FlushCursor | null = null;
      for (;;) {
        const page = await flush.page(
          'shield_event_logs',
          { zone: KEY.zone, day: DAY },
          1n,
          horizon,
          after,
          limit,
        );
        if (page.last === null) break;
        const keys = flushPageKeys(page);
        expect(keys).toHaveLength(page.rows);
        expect(page.rows).toBeLessThanOrEqual(limit);
        if (after !== null)
          expect(page.last[0] > after[0] || (page.last[0] === after[0] && page.last[1] > after[1])).toBe(
            true,
          );
        seen.push(...keys.map((k) => k[2]!));
        after = page.last;
      }
      expect(seen.length).toBe(PAGES * ROWS);
      expect(new Set(seen).size).toBe(PAGES * ROWS);
    },
  );
}

describe('a flush pages by (batch, id) on SQLite', () => {
  flushPaging(() => {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-flush-order-'));
    const store = openSqliteStore(join(dir, 'archive.db'));
    return Promise.resolve({
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  });
});

describePostgres('a flush pages by (batch, id)', (_store, server) => {
  flushPaging(async () => {
    // A language collation, where log_id's key order is not its byte order.
    const db = await createTestDatabase(server, 'edgelog_test', { icuLocale: 'en-US' });
    const store = await openPostgresStore({ url: db.url, max: 4, now: () => NOW });
    return {
      store,
      close: async () => {
        await store.close();
        await db.drop();
      },
    };
  });
});
