// A flush reads a zone-day's rows of a batch range page by page (store/sqlite/flush.ts). Each page must
// walk the batch index from its cursor: the planner, left to itself, took the zone's (zone, timestamp)
// key, and every page read and sorted all the rows the zone holds (a 1M-entry day's flushes then held
// the worker's thread for seconds at a time, and BullMQ's lock lapsed). And the pages, cursor in the
// middle of a batch or not, give every row of the zone-day once, in (batch, id) order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyChecksum, type KeyPart } from '../../src/history/checksum.js';
import { HISTORY_TABLES, entryShape, QUARANTINE_SHAPE } from '../../src/store/history-columns.js';
import { flushPageSql } from '../../src/store/sqlite/flush.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FlushCursor } from '../../src/store/history-store.js';
import { DAY, shieldRows } from '../postgres/conformance.js';
import { flushPageKeys, shieldPartChecksum } from '../support/flush-page-keys.js';

let dir: string;
let store: SqliteStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-flush-page-'));
  store = openSqliteStore(join(dir, 'archive.db'));
  const { db, shield } = store.archive;
  // Zones 7 and 8 interleaved, batch by batch: five batches each, of 1 to 5 rows.
  for (let b = 0; b < 5; b++)
    for (const zone of [7, 8])
      db.transaction(() => shield.storeRows(zone, DAY, shieldRows(b + 1, zone * 1000 + b * 10)))();
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a flush page on SQLite', () => {
  it.each(HISTORY_TABLES)('%s: walks the batch index from the cursor, with no sort', (table) => {
    const zoneDay =
      table === 'quarantined_entries'
        ? 'zone_id = @zone AND log_date = @day AND source = @source'
        : `${table === 'origin_error_logs' ? 'pull_zone_id' : 'shield_zone_id'} = @zone AND log_date = @day`;
    const shape =
      table === 'quarantined_entries'
        ? QUARANTINE_SHAPE
        : entryShape(table === 'origin_error_logs' ? 'origin' : 'shield');
    const sql = flushPageSql(table, shape, zoneDay);
    const args = { lo: 1, below: 9, afterBatch: 1, afterId: 0, zone: 7, day: DAY, limit: 10 };
    const plan = store.archive.db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(table === 'quarantined_entries' ? { ...args, source: 'shield' } : args) as Array<{
      detail: string;
    }>;
    // The page's rows come from a co-routine the aggregate reads (never a temporary table or a sort).
    expect(plan.map((r) => r.detail)).toEqual([
      'CO-ROUTINE (subquery-1)',
      `SEARCH ${table} USING INDEX ${table}_batch (batch>? AND batch<?)`,
      'SCAN (subquery-1)',
    ]);
  });

  it('gives every row of the zone-day once, in (batch, id) order, whatever the page size', async () => {
    const { db } = store.archive;
    const expected = (
      db
        .prepare('SELECT batch, id FROM shield_event_logs WHERE shield_zone_id = 7 ORDER BY batch, id')
        .raw(true)
        .all() as Array<[number, number]>
    ).map(([b, id]) => `${b}/${id}`);
    expect(expected).toHaveLength(15);
    const flush = store.history.flush;
    const horizon = await flush.horizon();
    for (const limit of [1, 2, 4, 100]) {
      const seen: string[] = [];
      let after: FlushCursor | null = null;
      for (;;) {
        const page = await flush.page('shield_event_logs', { zone: 7, day: DAY }, 1n, horizon, after, limit);
        if (page.last === null) break;
        expect(flushPageKeys(page)).toHaveLength(page.rows);
        expect(page.rows).toBeLessThanOrEqual(limit);
        seen.push(...rowsOf(db, page.rows, after, page.last));
        after = page.last;
      }
      expect(seen).toEqual(expected);
    }
    // A range that starts past the first batches leaves them out.
    const third = BigInt(expected[5]!.split('/')[0]!); // zone 7's third batch (rows 4 to 6)
    const late = await flush.page('shield_event_logs', { zone: 7, day: DAY }, third, horizon, null, 100);
    expect(late.rows).toBe(3 + 4 + 5);
    expect(flushPageKeys(late)).toHaveLength(3 + 4 + 5);
  });
});

describe("a flush page's bytes on SQLite", () => {
  let dir2: string;
  let other: SqliteStore;
  beforeAll(() => {
    dir2 = mkdtempSync(join(tmpdir(), 'edgelog-flush-bytes-'));
    other = openSqliteStore(join(dir2, 'archive.db'));
  });
  afterAll(async () => {
    await other?.close();
    rmSync(dir2, { recursive: true, force: true });
  });

  it('frames keys that hold anything as KeyChecksum hashes their values, and the part verifies', async () => {
    const odd = ['a:b', 'new\nline', '12:x\n', 'nul\u0000x', 'é 日本 🙂', '\ufeffbom', 'q"uote \\ \r\t', ''];
    const { db, shield } = other.archive;
    // The longest line is of three-byte characters: its bytes are not its length.
    const rows = shieldRows(odd.length).map((r, i) => ({
      ...r,
      logId: odd[i]!,
      log: `{"odd":"${i}"}`,
      message: i === 4 ? '日'.repeat(200) : 'm',
    }));
    db.transaction(() => shield.storeRows(9, DAY, rows))();
    const flush = other.history.flush;
    const page = await flush.page(
      'shield_event_logs',
      { zone: 9, day: DAY },
      1n,
      await flush.horizon(),
      null,
      100,
    );
    expect(page.rows).toBe(odd.length);
    // The longest line in bytes (DuckDB's JSON reader is told it), not in characters.
    const lines =
      'lines' in page && typeof page.lines !== 'string' ? Buffer.from(page.lines) : Buffer.alloc(0);
    const lengths = lines
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => Buffer.byteLength(l));
    expect(lengths).toHaveLength(odd.length);
    expect(page).toMatchObject({ longestBytes: Math.max(...lengths) });
    // A NUL of the id's own is a part separator's byte too: the id is the key's text after the second.
    expect(flushPageKeys(page).map((k) => k.slice(2).join('\u0000'))).toEqual(odd);
    const values = new KeyChecksum();
    const stored = db
      .prepare('SELECT shield_zone_id, timestamp, log_id FROM shield_event_logs WHERE shield_zone_id = 9')
      .raw(true)
      .safeIntegers(true)
      .all() as KeyPart[][];
    for (const key of stored) values.add(key);
    // The store's framed keys hash as the values do, and as DuckDB reads them back from the file.
    expect(await shieldPartChecksum(page)).toBe(values.digest());
  });

  it('ends each page at its last row in (batch, id) order where a later batch holds lower ids', async () => {
    const { db, shield } = other.archive;
    // The first batch's rows get ids 1000 and 1001, the second's 10 and 11: the greatest batch and the
    // greatest id are of different rows.
    db.transaction(() => shield.storeRows(10, DAY, shieldRows(2, 100)))();
    db.transaction(() => shield.storeRows(10, DAY, shieldRows(2, 102)))();
    const stored = db
      .prepare('SELECT batch, id FROM shield_event_logs WHERE shield_zone_id = 10 ORDER BY batch, id')
      .raw(true)
      .all() as Array<[number, number]>;
    const move = db.prepare('UPDATE shield_event_logs SET id = ? WHERE id = ?');
    [1000, 1001, 10, 11].forEach((id, i) => move.run(id, stored[i]![1]));
    const rows = db
      .prepare('SELECT batch, id FROM shield_event_logs WHERE shield_zone_id = 10 ORDER BY batch, id')
      .raw(true)
      .all() as Array<[number, number]>;
    expect(rows.map(([, id]) => id)).toEqual([1000, 1001, 10, 11]);
    const flush = other.history.flush;
    const horizon = await flush.horizon();
    for (const limit of [1, 2, 3, 4]) {
      const seen: string[] = [];
      let after: FlushCursor | null = null;
      for (let n = 0; n < 10; n++) {
        const page = await flush.page('shield_event_logs', { zone: 10, day: DAY }, 1n, horizon, after, limit);
        if (page.last === null) break;
        seen.push(...rowsOf(db, page.rows, after, page.last, 10));
        after = page.last;
      }
      expect(seen).toEqual(rows.map(([b, id]) => `${b}/${id}`));
    }
  });
});

/** The (batch, id) of the `n` rows of `zone` after `after` through `last`, as the page says they are. */
function rowsOf(
  db: SqliteStore['archive']['db'],
  n: number,
  after: FlushCursor | null,
  last: FlushCursor,
  zone = 7,
): string[] {
  const rows = db
    .prepare(
      `SELECT batch, id FROM shield_event_logs WHERE shield_zone_id = ${zone}
        AND (batch, id) > (?, ?) AND (batch, id) <= (?, ?) ORDER BY batch, id`,
    )
    .raw(true)
    .all(after?.[0] ?? 0n, after?.[1] ?? 0n, last[0], last[1]) as Array<[number, number]>;
  expect(rows).toHaveLength(n);
  return rows.map(([b, id]) => `${b}/${id}`);
}
