// A flush reads a zone-day's rows of a batch range page by page (store/sqlite/flush.ts). Each page must
// walk the batch index from its cursor: the planner, left to itself, took the zone's (zone, timestamp)
// key, and every page read and sorted all the rows the zone holds (a 1M-entry day's flushes then held
// the worker's thread for seconds at a time, and BullMQ's lock lapsed). And the pages, cursor in the
// middle of a batch or not, give every row of the zone-day once, in (batch, id) order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_TABLES, entryShape, QUARANTINE_SHAPE } from '../../src/store/history-columns.js';
import { pageColumns } from '../../src/store/history-page.js';
import { flushPageSql } from '../../src/store/sqlite/flush.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FlushCursor } from '../../src/store/history-store.js';
import { DAY, shieldRows } from '../postgres/conformance.js';

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
    const sql = flushPageSql(
      table,
      pageColumns(shape, (c) => `json_array(${c})`),
      zoneDay,
    );
    const args = { lo: 1, below: 9, afterBatch: 1, afterId: 0, zone: 7, day: DAY, limit: 10 };
    const plan = store.archive.db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(table === 'quarantined_entries' ? { ...args, source: 'shield' } : args) as Array<{
      detail: string;
    }>;
    expect(plan.map((r) => r.detail)).toEqual([
      `SEARCH ${table} USING INDEX ${table}_batch (batch>? AND batch<?)`,
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
        expect(page.keys.length).toBeLessThanOrEqual(limit);
        seen.push(...rowsOf(db, page.keys.length, after, page.last));
        after = page.last;
      }
      expect(seen).toEqual(expected);
    }
    // A range that starts past the first batches leaves them out.
    const third = BigInt(expected[5]!.split('/')[0]!); // zone 7's third batch (rows 4 to 6)
    const late = await flush.page('shield_event_logs', { zone: 7, day: DAY }, third, horizon, null, 100);
    expect(late.keys).toHaveLength(3 + 4 + 5);
  });
});

/** The (batch, id) of the `n` rows of zone 7 after `after` through `last`, as the page says they are. */
function rowsOf(
  db: SqliteStore['archive']['db'],
  n: number,
  after: FlushCursor | null,
  last: FlushCursor,
): string[] {
  const rows = db
    .prepare(
      `SELECT batch, id FROM shield_event_logs WHERE shield_zone_id = 7
        AND (batch, id) > (?, ?) AND (batch, id) <= (?, ?) ORDER BY batch, id`,
    )
    .raw(true)
    .all(after?.[0] ?? 0n, after?.[1] ?? 0n, last[0], last[1]) as Array<[number, number]>;
  expect(rows).toHaveLength(n);
  return rows.map(([b, id]) => `${b}/${id}`);
}
