// `edgelog compact --verify` (history/verify.ts) holds the parts against the store: below the flush
// watermark a day not pruned holds in the store exactly the rows its parts hold, and a pruned day none.
// A store row below the watermark that no part holds is read by no reader (they read parts there): the
// state PostgreSQL's text-sorted flush pages left (flush-page-order.test.ts). Verify finds it on both
// stores, repairs by the union (the parts' rows and the store's in one part again), and finds nothing
// the second time.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryDeps } from '../../src/history/compact-day.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { readWatermark } from '../../src/history/flush-marker.js';
import { historyPass } from '../../src/history/history-pass.js';
import { dayDir } from '../../src/history/layout.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { liveParts } from '../../src/history/parts.js';
import { readDayDir } from '../../src/history/published-days.js';
import { verifyHistory } from '../../src/history/verify.js';
import type { DayKey } from '../../src/store/store.js';
import { testServer } from '../postgres/support/server.js';
import { openPostgres, openSqlite, storeOriginPass, type OpenedStore } from '../support/page-store.js';
import { describeStores, type StoreKind } from '../support/stores.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 3 * 86_400_000 + 3_600_000;
const server = await testServer();

const originEntry = (i: number) =>
  JSON.stringify({
    logId: `o-${i}`,
    timestamp: DAY_START + i * 1000,
    log: JSON.stringify({ StatusCode: 502, RequestUrl: `/x/${i}` }),
    labels: { StatusCode: '502' },
  });
const entries = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => originEntry(from + i));

describeStores('compact --verify against the store', (kind: StoreKind) => {
  let s: OpenedStore;
  let duck: DuckDBConnection;
  let root: string;
  let clock = NOW;
  const key: DayKey = { source: 'origin', zone: 11, day: DAY };
  const deps = (): HistoryDeps => ({
    store: s.store,
    root,
    duck,
    owner: 'test-verify',
    now: () => clock,
    leaseMs: 60_000,
    parquet: DEFAULT_PARQUET_OPTIONS,
    pageRows: 100,
  });
  const pass = (hotDays: number | null) => historyPass(deps(), { hotDays, originLookbackDays: 2 });

  /** Moves rows into batch 1, below the watermark, as a flush that skipped them would leave them. */
  async function orphan(logIds: string[]): Promise<void> {
    const sql = `UPDATE origin_error_logs SET batch = 1 WHERE log_id IN (${logIds.map((id) => `'${id}'`).join(', ')})`;
    if (kind === 'SQLite') {
      const db = new Database(s.where);
      try {
        expect(db.prepare(sql).run().changes).toBe(logIds.length);
      } finally {
        db.close();
      }
    } else {
      const c = new pg.Client({ connectionString: s.where });
      await c.connect();
      try {
        expect((await c.query(sql)).rowCount).toBe(logIds.length);
      } finally {
        await c.end();
      }
    }
  }

  /** The log ids the day's live parts hold, each as often as held. */
  async function partIds(): Promise<string[]> {
    const dir = dayDir(root, 'origin_error_logs', key.zone, key.day);
    const files = liveParts(readDayDir(dir).parts, readWatermark(root)).map((p) => `'${join(dir, p.name)}'`);
    if (files.length === 0) return [];
    const r = await duck.runAndReadAll(
      `SELECT log_id FROM read_parquet([${files.join(', ')}], hive_partitioning = false) ORDER BY log_id`,
    );
    return r.getRows().map((row) => String(row[0]));
  }
  const ids = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `o-${from + i}`).sort();

  beforeAll(async () => {
    s = kind === 'SQLite' ? await openSqlite(() => NOW) : await openPostgres(server!, () => NOW);
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-verify-'));
  });
  afterAll(async () => {
    duck?.closeSync();
    await s?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('finds store rows below the watermark that no part holds, on a day not pruned, and writes them in', async () => {
    await storeOriginPass(s.store, key, entries(0, 300), clock, 100);
    await s.store.ledger.finish(key, 'values-test', 'complete', clock, clock);
    expect(await pass(null)).toMatchObject({ days: 1, entries: 300 });
    expect(await verifyHistory(deps())).toMatchObject({ findings: [] });

    await storeOriginPass(s.store, key, entries(300, 305), clock, 100);
    await s.store.ledger.finish(key, 'values-test', 'complete', clock, clock);
    await orphan(ids(300, 305));
    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ table: 'origin_error_logs', problem: 'short', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.findings[0]!.detail).toContain('the store holds 305');
    expect(await partIds()).toEqual(ids(0, 305));
    expect(readdirSync(dayDir(root, 'origin_error_logs', key.zone, key.day))).toHaveLength(1);
    expect(await verifyHistory(deps())).toMatchObject({ findings: [] });
  });

  it('finds store rows left below the watermark of a pruned day, and puts them with the rest', async () => {
    clock = NOW + 10 * 86_400_000;
    expect((await pass(7)).pruned).toMatchObject({ days: 1, entries: 305 });
    await storeOriginPass(s.store, key, entries(305, 310), clock, 100);
    await s.store.ledger.finish(key, 'values-test', 'complete', clock, clock);
    await orphan(ids(305, 310));
    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ table: 'origin_error_logs', problem: 'short', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.findings[0]!.detail).toContain('pruned');
    expect(await partIds()).toEqual(ids(0, 310));
    // The next pass prunes the day again: nothing of it left in the store, nothing for verify.
    expect((await pass(7)).pruned).toMatchObject({ days: 1, entries: 310 });
    expect(await verifyHistory(deps())).toMatchObject({ findings: [] });
    expect(await partIds()).toEqual(ids(0, 310));
  });
});
