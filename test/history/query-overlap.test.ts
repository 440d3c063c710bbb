// Two parts of one zone-day that overlap without one covering the other (parts.ts): no reader can tell
// which holds the day's rows. Only the statements that can see that day fail, with an error naming the
// table, zone and day and pointing to `edgelog compact --verify`; a statement whose own log_date or
// timestamp filter (statement-bounds.ts) leaves the day out answers, as the store does (each entry once).
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveQueries } from '../../src/history/archive-queries.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { readWatermark } from '../../src/history/flush-marker.js';
import { historyPass } from '../../src/history/history-pass.js';
import { dayDir } from '../../src/history/layout.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { liveParts } from '../../src/history/parts.js';
import { readDayDir } from '../../src/history/published-days.js';
import type { QueryStore, QueryValue } from '../../src/store/store.js';
import { openSqlite, storeOriginPass, type OpenedStore } from '../support/page-store.js';

const ZONE = 11;
const DAYS = ['2026-11-16', '2026-11-17', '2026-11-18'];
const [D1, BROKEN, D3] = DAYS as [string, string, string];
const COUNT: Record<string, number> = { [D1]: 110, [BROKEN]: 120, [D3]: 130 };
const NOW = Date.parse('2026-11-23T01:00:00Z');
const start = (day: string) => Date.parse(`${day}T00:00:00Z`);

async function rowsOf(queries: QueryStore, sql: string): Promise<QueryValue[][]> {
  return queries.readOnly(sql, { timeoutMs: 30_000 }, (cursor) => cursor.next(1000));
}
const plain = (rows: QueryValue[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));

describe('a zone-day whose parts overlap', () => {
  let s: OpenedStore;
  let duck: DuckDBConnection;
  let root: string;
  let archive: QueryStore;

  beforeAll(async () => {
    s = await openSqlite(() => NOW);
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-query-overlap-'));
    for (const day of DAYS) {
      const key = { source: 'origin' as const, zone: ZONE, day };
      const entries = Array.from({ length: COUNT[day]! }, (_, i) =>
        JSON.stringify({ logId: `${day}-${i}`, timestamp: start(day) + i * 1000, log: '{"StatusCode":502}' }),
      );
      // Pages of 50: a day's rows span several write batches, so its part can be cut in two that overlap.
      await storeOriginPass(s.store, key, entries, NOW, 50);
      await s.store.ledger.finish(key, 'values-test', 'complete', NOW, NOW);
    }
    const deps = {
      store: s.store,
      root,
      duck,
      owner: 'test-query-overlap',
      now: () => NOW,
      leaseMs: 60_000,
      parquet: DEFAULT_PARQUET_OPTIONS,
      pageRows: 100,
    };
    expect(await historyPass(deps, { hotDays: null, originLookbackDays: 2 })).toMatchObject({ days: 3 });
    // BROKEN's part [0, W) becomes [0, W-1) beside a copy of it as [1, W): neither covers the other.
    const dir = dayDir(root, 'origin_error_logs', ZONE, BROKEN);
    const [part, ...more] = liveParts(readDayDir(dir).parts, readWatermark(root));
    expect(more).toEqual([]);
    expect(part!.hi).toBeGreaterThanOrEqual(3n);
    const named = (lo: bigint, hi: bigint) =>
      join(dir, part!.name.replace(/^part-\d+-\d+/, `part-${lo}-${hi}`));
    copyFileSync(join(dir, part!.name), named(1n, part!.hi));
    renameSync(join(dir, part!.name), named(0n, part!.hi - 1n));
    archive = archiveQueries({ root, store: s.store.queries });
  }, 60_000);
  afterAll(async () => {
    duck?.closeSync();
    await s?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each<[string, QueryValue[][]]>([
    [`SELECT count(*), count(DISTINCT log_id) FROM origin_error_logs WHERE log_date = '${D3}'`, [[130, 130]]],
    [
      `SELECT CAST(log_date AS VARCHAR), count(*) FROM origin_error_logs WHERE log_date >= '${D3}' GROUP BY ALL`,
      [[D3, 130]],
    ],
    [
      `SELECT CAST(log_date AS VARCHAR), count(*) FROM origin_error_logs WHERE log_date <= '${D1}' GROUP BY ALL`,
      [[D1, 110]],
    ],
    [`SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${start(D3)}`, [[130]]],
    [`SELECT count(*) FROM origin_error_logs WHERE timestamp < ${start(BROKEN)}`, [[110]]],
    // Within BROKEN's day, past the timestamps its parts' names record: none, and no failure.
    [
      `SELECT count(*) FROM origin_error_logs WHERE timestamp BETWEEN ${start(BROKEN) + 3_600_000} AND ${start(D3) - 1}`,
      [[0]],
    ],
  ])('answers a statement whose filter leaves the day out, each entry once: %s', async (sql, expected) => {
    expect(plain(await rowsOf(archive, sql))).toEqual(expected);
  });

  it.each([
    'SELECT count(*) FROM origin_error_logs',
    `SELECT count(*) FROM origin_error_logs WHERE log_date = '${BROKEN}'`,
    `SELECT count(*) FROM origin_error_logs WHERE log_date BETWEEN '${D1}' AND '${D3}'`,
    `SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${start(BROKEN) + 5000}`,
    // A strict bound on log_date is kept as an inclusive one (statement-bounds.ts dayBounds): the day
    // named counts as seen, and the statement fails rather than risk leaving a day out.
    `SELECT count(*) FROM origin_error_logs WHERE log_date < '${BROKEN}'`,
    // Bounds the view cannot rely on (by `time`, or under OR) leave the day in: it fails, never dropped.
    `SELECT count(*) FROM origin_error_logs WHERE "time" >= '${D3}'`,
    `SELECT count(*) FROM origin_error_logs WHERE log_date = '${D3}' OR log_id = 'x'`,
  ])('fails a statement that can see the day, naming it and compact --verify: %s', async (sql) => {
    const failure = rowsOf(archive, sql);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^query failed: origin_error_logs of zone ${ZONE} on ${BROKEN} cannot be read: its parts part-0-\\d+_\\S+ and part-1-\\d+_\\S+ overlap without one covering the other`,
      ),
    );
    await expect(failure).rejects.toThrow(/edgelog compact --verify/);
  });
});
