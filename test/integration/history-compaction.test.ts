// The history's pass on SQLite and PostgreSQL alike, against real files read back by a real DuckDB: the
// flush writes the store's rows into parts, a settled zone-day's parts are merged into one verified part
// holding exactly the rows the store held for it, a later pass's rows are merged in again, pruning
// removes only rows the parts hold, and a row stored after pruning joins the day's rows.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entryShape, QUARANTINE_SHAPE } from '../../src/store/history-columns.js';
import type { HistoryDeps } from '../../src/history/compact-day.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { historyPass } from '../../src/history/history-pass.js';
import { dayDir, type HistorySource, type HistoryTable } from '../../src/history/layout.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import type { DayKey } from '../../src/store/store.js';
import { testServer } from '../postgres/support/server.js';
import {
  openPostgres,
  openSqlite,
  storeOriginPass,
  storeShieldPass,
  tableRows,
  type OpenedStore,
  type Row,
} from '../support/page-store.js';
import { describeStores, type StoreKind } from '../support/stores.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 3 * 86_400_000 + 3_600_000;
const server = await testServer();
const at = (second: number) => DAY_START + second * 1000;

function shieldEntry(i: number): string {
  return JSON.stringify({
    logId: `s-${String(i).padStart(5, '0')}`,
    timestamp: at(i),
    log: JSON.stringify({ Message: `rule ${i % 7}`, Url: `/p/${i}` }),
    labels: { ruleId: `r${i % 5}`, severity: 'high', country: 'DE', status: 'blocked' },
  });
}
function originEntry(i: number): string {
  return JSON.stringify({
    logId: `o-${i}`,
    timestamp: at(i),
    log: JSON.stringify({ StatusCode: 500 + (i % 4), RequestUrl: `/x/${i}` }),
    labels: { StatusCode: String(500 + (i % 4)) },
  });
}

const norm = (rows: Row[]) =>
  rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
  );

async function fileRows(duck: DuckDBConnection, file: string, order: string): Promise<Row[]> {
  const reader = await duck.runAndReadAll(
    `SELECT * FROM read_parquet('${file}', hive_partitioning = false) ORDER BY ${order}`,
  );
  return norm(reader.getRowObjects());
}

/** The one part of a merged table-zone-day (the test fails if there are others). */
function dayPart(
  root: string,
  table: HistoryTable,
  zone: number,
  day: string,
  source?: HistorySource,
): string {
  const dir = dayDir(root, table, zone, day, source);
  const parts = readdirSync(dir).filter((n) => n.startsWith('part-'));
  expect(parts).toHaveLength(1);
  return join(dir, parts[0]!);
}

describeStores('history compaction', (kind: StoreKind) => {
  let s: OpenedStore;
  let duck: DuckDBConnection;
  let root: string;
  let clock = NOW;
  const deps = (): HistoryDeps => ({
    store: s.store,
    root,
    duck,
    owner: 'test-compactor',
    now: () => clock,
    leaseMs: 60_000,
    parquet: DEFAULT_PARQUET_OPTIONS,
    pageRows: 700,
  });
  const pass = (hotDays: number | null) => historyPass(deps(), { hotDays, originLookbackDays: 2 });
  const shield: DayKey = { source: 'shield', zone: 201, day: DAY };
  const origin: DayKey = { source: 'origin', zone: 11, day: DAY };

  beforeAll(async () => {
    s = kind === 'SQLite' ? await openSqlite(() => NOW) : await openPostgres(server!, () => NOW);
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-history-'));
  });
  afterAll(async () => {
    duck?.closeSync();
    await s?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('compacts a settled zone-day into one verified file per table, recorded with its figures', async () => {
    const pages = [0, 1, 2].map((p) => Array.from({ length: 1000 }, (_, i) => shieldEntry(p * 1000 + i)));
    pages[1]!.push('{"logId":null,"timestamp":1}', '"not an object"');
    await storeShieldPass(s.store, shield, pages, NOW - 86_400_000);
    await storeOriginPass(
      s.store,
      origin,
      Array.from({ length: 2500 }, (_, i) => originEntry(i)),
      NOW,
      600,
    );
    // Shield's day left the API's window (whatever its state); the origin day is complete.
    await s.store.ledger.finish(origin, 'values-test', 'complete', NOW, NOW);
    await s.store.ledger.stop(shield, 'values-test', 'running', null, NOW - 86_400_000);

    const summary = await pass(null);
    expect(summary).toMatchObject({ days: 2, entries: 5500, quarantined: 2, busy: 0 });

    const shieldFile = dayPart(root, 'shield_event_logs', 201, DAY);
    const stored = await tableRows(
      s.reader,
      'shield_event_logs',
      `shield_zone_id = 201 AND log_date = '${DAY}'`,
    );
    const shape = entryShape('shield');
    expect(await fileRows(duck, shieldFile, 'timestamp, log_id')).toEqual(
      norm(stored).map((r) => Object.fromEntries(shape.columns.map((c) => [c.name, r[c.name]]))),
    );
    // Written in (timestamp, log_id) order, as the contract says.
    const inOrder = await duck.runAndReadAll(
      `SELECT log_id FROM read_parquet('${shieldFile}', hive_partitioning = false)`,
    );
    expect(inOrder.getRows().map((r) => r[0])).toEqual(stored.map((r) => r.log_id));
    const quarantined = await fileRows(
      duck,
      dayPart(root, 'quarantined_entries', 201, DAY, 'shield'),
      'page, position',
    );
    expect(quarantined.map((r) => [r.page, r.position])).toEqual([
      [2, 1000],
      [2, 1001],
    ]);
    expect(Object.keys(quarantined[0]!)).toEqual(QUARANTINE_SHAPE.columns.map((c) => c.name));
    expect(existsSync(dayPart(root, 'origin_error_logs', 11, DAY))).toBe(true);
    // No temporary file and no merged part is left beside the merge's part, whose name records its
    // batches and exactly its least and greatest timestamp (parts.ts).
    const bounds = await duck.runAndReadAll(
      `SELECT min(timestamp), max(timestamp) FROM read_parquet('${shieldFile}', hive_partitioning = false)`,
    );
    const [min, max] = bounds.getRows()[0]!;
    expect(readdirSync(join(root, 'shield_event_logs', 'zone=201', `day=${DAY}`))).toEqual([
      expect.stringMatching(new RegExp(`^part-0-\\d+_${String(min)}_${String(max)}\\.parquet$`)),
    ]);
    // The quarantine has no timestamp: none in the name.
    expect(readdirSync(join(root, 'quarantined_entries', 'source=shield', 'zone=201', `day=${DAY}`))).toEqual(
      [expect.stringMatching(/^part-0-\d+\.parquet$/)],
    );

    const recorded = await s.store.history.list({ source: 'shield' });
    expect(recorded).toEqual([
      expect.objectContaining({
        zone_id: 201,
        log_date: DAY,
        entries: 3000,
        quarantined: 2,
        ledger_entries: 3000,
        ledger_quarantined: 2,
        compacted_at: NOW,
        pruned_at: null,
        lease_owner: null,
        part: shieldFile.split('/').at(-1),
      }),
    ]);
    expect(recorded[0]!.checksum).toMatch(/^3000:[0-9a-f]{16}$/);
    // Nothing changed: nothing to do.
    expect(await pass(null)).toMatchObject({ days: 0 });
  });

  it('compacts a day again when a later pass added rows, and prunes only after verification', async () => {
    await storeOriginPass(
      s.store,
      origin,
      Array.from({ length: 2600 }, (_, i) => originEntry(i)),
      NOW,
      600,
    );
    await s.store.ledger.finish(origin, 'values-test', 'complete', NOW, NOW);
    expect(await pass(null)).toMatchObject({ days: 1, entries: 2600 });

    // hotDays 7 at NOW keeps the day's rows; ten days on, they go.
    expect((await pass(7)).pruned.days).toBe(0);
    clock = NOW + 10 * 86_400_000;
    const pruned = await pass(7);
    expect(pruned.pruned).toEqual({ days: 2, entries: 5600, quarantined: 2 });
    expect(await tableRows(s.reader, 'origin_error_logs', `log_date = '${DAY}'`)).toEqual([]);
    expect(await tableRows(s.reader, 'quarantined_entries', `log_date = '${DAY}'`)).toEqual([]);
    // The ledger and the rollups stay.
    expect((await s.store.ledger.get(origin))!.archived_entries).toBe(2600);
    expect((await tableRows(s.reader, 'origin_hourly', 'true')).length).toBeGreaterThan(0);
    const rows = await s.store.history.list();
    expect(rows.every((r) => r.pruned_at === clock)).toBe(true);
    if (kind === 'PostgreSQL')
      expect(pruned.reclaimed?.dropped).toContain(`origin_error_logs_${DAY.replaceAll('-', '')}`);
    // SQLite (a new archive has incremental auto-vacuum) gives the pruned rows' pages back.
    else expect(pruned.reclaimed!.fileBytes!.after).toBeLessThan(pruned.reclaimed!.fileBytes!.before);
  });

  it('one holder of a day at a time, on any host: a second claim is busy and cannot record or prune', async () => {
    const day: DayKey = { source: 'shield', zone: 999, day: '2026-11-01' };
    const rec = {
      part: 'part-0-1.parquet',
      quarantinePart: '',
      entries: 1,
      quarantined: 0,
      bytes: 1,
      checksum: 'x',
      quarantineChecksum: 'y',
      ledgerEntries: 1,
      ledgerQuarantined: 0,
    };
    expect(await s.store.history.claim(day, 'a', 1000, 500)).toBe(true);
    expect(await s.store.history.claim(day, 'b', 1200, 500)).toBe(false);
    expect(await s.store.history.record(day, 'b', rec, 1200)).toBe(false);
    expect(await s.store.history.record(day, 'a', rec, 1200)).toBe(true);
    expect(await s.store.history.markPruned(day, 'b', 1300)).toBe(false);
    // The lease ran out: the next claim takes it, and the first holder can no longer record.
    expect(await s.store.history.claim(day, 'b', 1500, 500)).toBe(true);
    expect(await s.store.history.record(day, 'a', rec, 1600)).toBe(false);
    await s.store.history.release(day, 'a');
    expect((await s.store.history.list({ zone: 999 }))[0]).toMatchObject({
      lease_owner: 'b',
      compacted_at: 1200,
    });
    await s.store.history.release(day, 'b');
    expect((await s.store.history.list({ zone: 999 }))[0]!.lease_owner).toBeNull();
  });

  it('a day whose lease another holder keeps is not pruned, and the pass says so', async () => {
    // A compact killed mid-pruning leaves its lease until it runs out: the next pass may not prune that
    // day, and must count it (the command then says so) rather than pass over it in silence.
    const day: DayKey = { source: 'origin', zone: 14, day: DAY };
    await storeOriginPass(
      s.store,
      day,
      Array.from({ length: 200 }, (_, i) => originEntry(i)),
      clock,
      600,
    );
    await s.store.ledger.finish(day, 'values-test', 'complete', clock, clock);
    expect(await pass(null)).toMatchObject({ days: 1, entries: 200, pruneBusy: 0 });
    expect(await s.store.history.claim(day, 'a-killed-compact', clock, 60_000)).toBe(true);
    const held = await pass(7);
    expect(held).toMatchObject({ pruned: { days: 0 }, pruneBusy: 1 });
    expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 14')).toHaveLength(200);
    await s.store.history.release(day, 'a-killed-compact');
    expect(await pass(7)).toMatchObject({ pruned: { days: 1, entries: 200 }, pruneBusy: 0 });
    expect(await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 14')).toEqual([]);
  });

  it('keeps a day in the store when its file no longer matches what was recorded', async () => {
    // Zone 12's part will not match; zone 13's, merged beside it, is pruned all the same.
    for (const zone of [12, 13]) {
      const day: DayKey = { source: 'origin', zone, day: DAY };
      await storeOriginPass(
        s.store,
        day,
        Array.from({ length: 300 }, (_, i) => originEntry(i)),
        clock,
        600,
      );
      await s.store.ledger.finish(day, 'values-test', 'complete', clock, clock);
    }
    expect(await pass(null)).toMatchObject({ days: 2, entries: 600 });
    // Another file put in its place (a copy of a day with other rows).
    copyFileSync(dayPart(root, 'origin_error_logs', 11, DAY), dayPart(root, 'origin_error_logs', 12, DAY));
    // That day is left in the store, said so; the others are pruned all the same.
    const summary = await pass(7);
    expect(summary.failed).toEqual([
      expect.objectContaining({
        zone: 12,
        step: 'prune',
        error: expect.stringMatching(/no longer match what the merge recorded/) as unknown,
      }),
    ]);
    expect(summary.pruned).toEqual({ days: 1, entries: 300, quarantined: 0 });
    expect(await tableRows(s.reader, 'origin_error_logs', `pull_zone_id = 13`)).toEqual([]);
    expect(await tableRows(s.reader, 'origin_error_logs', `pull_zone_id = 12`)).toHaveLength(300);
    expect((await s.store.history.list({ zone: 12 }))[0]!.pruned_at).toBeNull();
  });

  it("a row stored after pruning joins the day: its part merged with the day's, every row kept", async () => {
    // One entry more stored for the pruned day: the flush writes its part, the merge joins it in.
    await storeOriginPass(s.store, origin, [originEntry(5000)], clock, 600);
    await s.store.ledger.finish(origin, 'values-test', 'complete', clock, clock);
    const again = await pass(null);
    expect(again).toMatchObject({ days: 1, entries: 2601 });
    const file = dayPart(root, 'origin_error_logs', 11, DAY);
    const ids = (await fileRows(duck, file, 'timestamp, log_id')).map((r) => r.log_id);
    expect(ids).toHaveLength(2601);
    expect(ids.at(-1)).toBe('o-5000');
    const inOrder = await duck.runAndReadAll(
      `SELECT timestamp FROM read_parquet('${file}', hive_partitioning = false)`,
    );
    const ts = inOrder.getRows().map((r) => Number(r[0]));
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    // The merged part alone: the parts it covers went once it was in place.
    expect(readdirSync(join(root, 'origin_error_logs', 'zone=11', `day=${DAY}`))).toEqual([
      expect.stringMatching(new RegExp(`^part-0-\\d+_${ts[0]}_${ts.at(-1)}\\.parquet$`)),
    ]);
  });

  it('every value reaches the file exactly as the store holds it, whatever its characters', async () => {
    // The rows cross from the store to DuckDB as JSON text (history-store.ts HistoryPage): quotes,
    // backslashes, control characters, non-ASCII, JSON inside a string and NULLs must come out as the
    // store holds them. An entry with a NUL is quarantined (PostgreSQL keeps none in text), its raw text
    // as the store keeps it.
    const odd = 'q"uote \\ back \u0001\u001f\u007f tab\t nl\n cr\r é 日本 🙂 \u2028 </script> \\u0000';
    const key: DayKey = { source: 'shield', zone: 203, day: DAY };
    const entries = [0, 1, 2].map((i) =>
      JSON.stringify({
        logId: i === 2 ? `${odd}\u0000` : `w-${i}`,
        timestamp: at(i),
        log: JSON.stringify({ Message: odd, Url: `/p/${odd}`, n: i }),
        labels: { ruleId: odd, severity: i === 1 ? null : 'high', country: '', status: '\\' },
      }),
    );
    await storeShieldPass(s.store, key, [entries], clock - 4 * 86_400_000);
    await s.store.ledger.stop(key, 'values-test', 'running', null, clock - 4 * 86_400_000);
    expect(await pass(null)).toMatchObject({ entries: 2, quarantined: 1 });
    const stored = await tableRows(s.reader, 'shield_event_logs', `shield_zone_id = 203`);
    const shape = entryShape('shield');
    const file = await fileRows(duck, dayPart(root, 'shield_event_logs', 203, DAY), 'timestamp, log_id');
    expect(file).toEqual(
      norm(stored).map((r) => Object.fromEntries(shape.columns.map((c) => [c.name, r[c.name]]))),
    );
    expect(String(file[0]!.rule_id)).toContain('日本 🙂');
    expect(file[1]!.severity).toBeNull();
    const quarantined = await tableRows(s.reader, 'quarantined_entries', 'zone_id = 203');
    expect(quarantined).toHaveLength(1);
    expect(await fileRows(duck, dayPart(root, 'quarantined_entries', 203, DAY, 'shield'), 'page')).toEqual(
      norm(quarantined).map((r) =>
        Object.fromEntries(QUARANTINE_SHAPE.columns.map((c) => [c.name, r[c.name]])),
      ),
    );
  });
});
