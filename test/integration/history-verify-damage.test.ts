// `edgelog compact --verify` (history/verify.ts) against parts damaged on disk: deleted, truncated, or
// overwritten with other rows, on days the store still holds and on pruned days. A day the store holds is
// written again from it, and afterwards every reader's count equals the store's; a pruned day's part is
// moved under .damaged/ and its entries are counted lost exactly once, which status and /metrics show.
// One bad day never stops the others. Each test builds its own archive of four days, on both stores.
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { archiveQueries } from '../../src/history/archive-queries.js';
import type { HistoryDeps } from '../../src/history/compact-day.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { readWatermark } from '../../src/history/flush-marker.js';
import { readHistoryHealth } from '../../src/history/history-health.js';
import { historyPass } from '../../src/history/history-pass.js';
import { dayDir } from '../../src/history/layout.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { liveParts } from '../../src/history/parts.js';
import { readDayDir } from '../../src/history/published-days.js';
import { DAMAGED_DIR, verifyHistory } from '../../src/history/verify.js';
import { archiveCollector } from '../../src/monitoring/archive-collector.js';
import { defineMetrics } from '../../src/monitoring/definitions.js';
import type { DayKey } from '../../src/store/store.js';
import type { Day } from '../../src/time/utc-day.js';
import { testServer } from '../postgres/support/server.js';
import { openPostgres, openSqlite, storeOriginPass, type OpenedStore } from '../support/page-store.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';
import { describeStores, type StoreKind } from '../support/stores.js';

const ZONE = 11;
/** Four settled days, each with its own number of entries, so that a count names its day. */
const DAYS = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'] as Day[];
const COUNT: Record<string, number> = {
  '2026-11-16': 110,
  '2026-11-17': 120,
  '2026-11-18': 130,
  '2026-11-19': 140,
};
const [D1, D2, D3, D4] = DAYS as [Day, Day, Day, Day];
const NOW = Date.parse('2026-11-23T01:00:00Z');
const TABLE = 'origin_error_logs';
const server = await testServer();

const entries = (day: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      logId: `${day}-${i}`,
      timestamp: Date.parse(`${day}T00:00:00Z`) + i * 1000,
      log: JSON.stringify({ StatusCode: 502, RequestUrl: `/x/${i}` }),
      labels: { StatusCode: '502' },
    }),
  );

/** Per day: [entries, distinct log ids], as a reader counts them. */
type Counts = Record<string, [number, number]>;
const expected = (days: readonly string[]): Counts =>
  Object.fromEntries(days.map((d) => [d, [COUNT[d]!, COUNT[d]!]]));

describeStores('compact --verify of damaged parts', (kind: StoreKind) => {
  let s: OpenedStore;
  let duck: DuckDBConnection;
  let root: string;
  const deps = (): HistoryDeps => ({
    store: s.store,
    root,
    duck,
    owner: 'test-verify-damage',
    now: () => NOW,
    leaseMs: 60_000,
    parquet: DEFAULT_PARQUET_OPTIONS,
    pageRows: 100,
  });

  beforeEach(async () => {
    s = kind === 'SQLite' ? await openSqlite(() => NOW) : await openPostgres(server!, () => NOW);
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-verify-damage-'));
  });
  afterEach(async () => {
    duck?.closeSync();
    await s?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** The four days stored, flushed and merged into one part each; `pruned` (the oldest) pruned too. */
  async function build(pruned: 0 | 2): Promise<void> {
    for (const day of DAYS) {
      const key: DayKey = { source: 'origin', zone: ZONE, day };
      await storeOriginPass(s.store, key, entries(day, COUNT[day]!), NOW, 100);
      await s.store.ledger.finish(key, 'values-test', 'complete', NOW, NOW);
    }
    const opts = { originLookbackDays: 2 };
    expect(await historyPass(deps(), { ...opts, hotDays: null })).toMatchObject({ days: 4, failed: [] });
    if (pruned > 0) {
      const done = await historyPass(deps(), { ...opts, hotDays: 0, filter: { to: D2 } });
      expect(done.pruned).toMatchObject({ days: 2, entries: COUNT[D1]! + COUNT[D2]! });
    }
    for (const day of DAYS) expect(partsOf(day)).toHaveLength(1);
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: 0 });
  }

  const dirOf = (day: string) => dayDir(root, TABLE, ZONE, day);
  const partsOf = (day: string) => liveParts(readDayDir(dirOf(day)).parts, readWatermark(root));
  /** The path of the day's one live part. */
  function partOf(day: string): string {
    const [part, ...more] = partsOf(day);
    expect(more).toEqual([]);
    return join(dirOf(day), part!.name);
  }

  /** `edgelog query`'s answer per day (the archive's dialect over parts and store alike). */
  async function queryCounts(): Promise<Counts> {
    const rows = await archiveQueries({ root, store: s.store.queries }).readOnly(
      `SELECT CAST(log_date AS VARCHAR), count(*), count(DISTINCT log_id) FROM ${TABLE}
       GROUP BY log_date ORDER BY log_date`,
      { timeoutMs: 30_000 },
      (cursor) => cursor.next(100),
    );
    return Object.fromEntries(rows.map((r) => [String(r[0]), [Number(r[1]), Number(r[2])]]));
  }

  /** `edgelog query`'s count of one day. */
  async function queryDay(day: string): Promise<number> {
    const rows = await archiveQueries({ root, store: s.store.queries }).readOnly(
      `SELECT count(*) FROM ${TABLE} WHERE log_date = '${day}'`,
      { timeoutMs: 30_000 },
      (cursor) => cursor.next(1),
    );
    return Number(rows[0]![0]);
  }

  /** The store's own rows per day (a pruned day has none). */
  async function storeCounts(): Promise<Counts> {
    const rows = await s.reader.all<{ day: string; n: number; ids: number }>(
      `SELECT CAST(log_date AS TEXT) AS day, count(*) AS n, count(DISTINCT log_id) AS ids FROM ${TABLE}
       GROUP BY log_date ORDER BY log_date`,
    );
    return Object.fromEntries(rows.map((r) => [r.day, [Number(r.n), Number(r.ids)]]));
  }

  /** What /metrics says of the history's losses, rendered as a scrape renders it. */
  async function lostMetrics(): Promise<Record<string, number>> {
    const m = defineMetrics(new Registry());
    await archiveCollector(m, s.store, root).collect();
    const text = parsePromText(await m.registry.metrics());
    return {
      missing: sampleValue(text, 'edgelog_history_lost_entries', { kind: 'missing' }),
      lost: sampleValue(text, 'edgelog_history_lost_entries', { kind: 'lost' }),
      lostDays: sampleValue(text, 'edgelog_history_issues', { kind: 'lost' }),
    };
  }

  const rowsIn = async (file: string) =>
    Number((await duck.runAndReadAll(`SELECT count(*) FROM read_parquet('${file}')`)).getRows()[0]![0]);

  /** Overwrites `file` with the first `keep` rows of itself: a part that lost rows, still a Parquet file. */
  async function keepFirst(file: string, keep: number): Promise<void> {
    const tmp = join(root, 'rewritten.parquet');
    await duck.run(
      `COPY (SELECT * FROM read_parquet('${file}') ORDER BY log_id LIMIT ${keep}) TO '${tmp}' (FORMAT parquet)`,
    );
    copyFileSync(tmp, file);
    rmSync(tmp);
  }

  it("rebuilds a day the store holds whose part was deleted ('missing'): every entry once", async () => {
    await build(0);
    const part = partOf(D2);
    rmSync(part);
    expect((await readHistoryHealth(s.store.queries, root)).issues).toEqual([
      { source: 'origin', zone: ZONE, day: D2, issue: 'missing', entries: COUNT[D2], pruned: false },
    ]);

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D2, table: TABLE, problem: 'missing', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.lost).toBe(0);
    expect(partsOf(D2)).toHaveLength(1);
    expect(await queryCounts()).toEqual(expected(DAYS));
    expect(await queryCounts()).toEqual(await storeCounts());
    expect(await readHistoryHealth(s.store.queries, root)).toMatchObject({ issues: [], lostEntries: 0 });
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: 0 });
  });

  it("rebuilds a day the store holds whose part was truncated ('unreadable'), the part kept aside", async () => {
    await build(0);
    const part = partOf(D3);
    truncateSync(part, 64);
    // Before: a statement over the whole table fails on the one bad file; one bounded to another day
    // does not open it.
    await expect(queryCounts()).rejects.toThrow(/No magic bytes/);
    expect(await queryDay(D1)).toBe(COUNT[D1]);

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D3, problem: 'unreadable', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.findings[0]!.detail).toMatch(/No magic bytes/);
    const aside = join(root, DAMAGED_DIR, TABLE, `zone=${ZONE}`, `day=${D3}`, part.split('/').pop()!);
    expect(statSync(aside).size).toBe(64);
    expect(await queryCounts()).toEqual(expected(DAYS));
    expect(await queryCounts()).toEqual(await storeCounts());
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: 0 });
  });

  it("rebuilds a day the store holds whose part holds other rows than recorded ('mismatch')", async () => {
    await build(0);
    const part = partOf(D4);
    await keepFirst(part, 100);
    expect((await queryCounts())[D4]).toEqual([100, 100]);

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D4, problem: 'mismatch', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.findings[0]!.detail).toMatch(/its keys are 100:\S+, the merge recorded 140:/);
    const aside = join(root, DAMAGED_DIR, TABLE, `zone=${ZONE}`, `day=${D4}`, part.split('/').pop()!);
    expect(await rowsIn(aside)).toBe(100);
    expect(await queryCounts()).toEqual(expected(DAYS));
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: 0 });
  });

  it('counts the entries of a pruned day whose part was deleted lost, once, in status and /metrics', async () => {
    await build(2);
    rmSync(partOf(D1));
    // Before: status and /metrics name the missing part of a pruned day.
    expect((await readHistoryHealth(s.store.queries, root)).issues).toEqual([
      { source: 'origin', zone: ZONE, day: D1, issue: 'missing', entries: COUNT[D1], pruned: true },
    ]);
    expect(await lostMetrics()).toEqual({ missing: COUNT[D1], lost: 0, lostDays: 0 });

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D1, problem: 'missing', outcome: 'lost', lost: COUNT[D1] }),
    ]);
    expect(found).toMatchObject({ lost: COUNT[D1], lostInAll: COUNT[D1] });
    const health = await readHistoryHealth(s.store.queries, root);
    expect(health.lostEntries).toBe(COUNT[D1]);
    expect(health.issues).toEqual([
      { source: 'origin', zone: ZONE, day: D1, issue: 'lost', entries: COUNT[D1], pruned: true },
    ]);
    expect(await lostMetrics()).toEqual({ missing: 0, lost: COUNT[D1], lostDays: 1 });
    expect(await queryCounts()).toEqual(expected([D2, D3, D4]));

    // A second look finds nothing new and counts nothing twice.
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: COUNT[D1] });
    expect((await readHistoryHealth(s.store.queries, root)).lostEntries).toBe(COUNT[D1]);
    expect(await lostMetrics()).toEqual({ missing: 0, lost: COUNT[D1], lostDays: 1 });
  });

  it('moves a pruned day’s truncated part under .damaged/ and counts it lost; the other days read', async () => {
    await build(2);
    const part = partOf(D2);
    truncateSync(part, 64);
    await expect(queryCounts()).rejects.toThrow(/No magic bytes/);

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D2, problem: 'unreadable', outcome: 'lost', lost: COUNT[D2] }),
    ]);
    expect(existsSync(part)).toBe(false);
    const aside = join(root, DAMAGED_DIR, TABLE, `zone=${ZONE}`, `day=${D2}`, part.split('/').pop()!);
    expect(statSync(aside).size).toBe(64);
    expect(await queryCounts()).toEqual(expected([D1, D3, D4]));
    expect((await readHistoryHealth(s.store.queries, root)).issues).toEqual([
      { source: 'origin', zone: ZONE, day: D2, issue: 'lost', entries: COUNT[D2], pruned: true },
    ]);
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: COUNT[D2] });
  });

  it("reports parts that overlap ('overlap') and leaves them, and still repairs the next bad day", async () => {
    await build(0);
    // D2's part [0, W) becomes [0, W-1) beside a copy as [1, W): neither covers the other.
    const part = partsOf(D2)[0]!;
    expect(part.hi).toBeGreaterThanOrEqual(3n);
    const named = (lo: bigint, hi: bigint) =>
      join(dirOf(D2), part.name.replace(/^part-\d+-\d+/, `part-${lo}-${hi}`));
    copyFileSync(join(dirOf(D2), part.name), named(1n, part.hi));
    renameSync(join(dirOf(D2), part.name), named(0n, part.hi - 1n));
    rmSync(partOf(D4));
    const on = readdirSync(dirOf(D2)).sort();

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D2, problem: 'overlap', outcome: 'left', lost: 0 }),
      expect.objectContaining({ day: D4, problem: 'missing', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found.findings[0]!.detail).toMatch(/overlap without one covering the other/);
    expect(readdirSync(dirOf(D2)).sort()).toEqual(on);
    expect(await rowsIn(partOf(D4))).toBe(COUNT[D4]);
  });

  it('finds two bad days in one run and leaves the good ones as they are', async () => {
    await build(2);
    // D1: pruned, its part holds fewer rows than recorded; D3: held by the store, its part deleted.
    await keepFirst(partOf(D1), 50);
    rmSync(partOf(D3));
    const good = [D2, D4].map((d) => {
      const st = statSync(partOf(d));
      return { day: d, part: partOf(d), ino: st.ino, mtimeMs: st.mtimeMs };
    });

    const found = await verifyHistory(deps());
    expect(found.findings).toEqual([
      expect.objectContaining({ day: D1, problem: 'mismatch', outcome: 'lost', lost: COUNT[D1] }),
      expect.objectContaining({ day: D3, problem: 'missing', outcome: 'rebuilt', lost: 0 }),
    ]);
    expect(found).toMatchObject({ lost: COUNT[D1], lostInAll: COUNT[D1] });
    for (const g of good) {
      const st = statSync(g.part);
      expect({ day: g.day, part: partOf(g.day), ino: st.ino, mtimeMs: st.mtimeMs }).toEqual(g);
    }
    expect(readdirSync(join(root, DAMAGED_DIR, TABLE, `zone=${ZONE}`))).toEqual([`day=${D1}`]);
    expect(await queryCounts()).toEqual(expected([D2, D3, D4]));
    expect(await verifyHistory(deps())).toMatchObject({ findings: [], lost: 0, lostInAll: COUNT[D1] });
  });
});
