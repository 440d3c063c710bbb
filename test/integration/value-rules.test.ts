// Values at the limits of what a store can hold (issue 17, items 1–8 and 11), each on SQLite and
// PostgreSQL alike: pages written as the API may write them, decoded by ingestion's own decoders and
// stored through storePage. One odd value must never fail its page; what fits is stored exactly (a number
// that does not fit its column is NULL there and kept as text in the entry's `log`), and what cannot be
// stored is quarantined at its place in the page, with a reason, on both stores.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiGuardianMetrics } from '../../src/api/index.js';
import { archiveQueries } from '../../src/history/archive-queries.js';
import { decodeShieldPage } from '../../src/ingest/decode-page.js';
import { migrateStore } from '../../src/store/migrate-store/migrate-store.js';
import { openStore } from '../../src/store/open-store.js';
import { openPool } from '../../src/store/postgres/connection.js';
import { migratePostgres, POSTGRES_MIGRATIONS_DIR } from '../../src/store/postgres/migrate.js';
import { Partitions } from '../../src/store/postgres/partitions.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { migrate, MIGRATIONS_DIR } from '../../src/store/sqlite/migrate.js';
import type { Day } from '../../src/time/utc-day.js';
import type { DayKey } from '../../src/store/store.js';
import { createTestDatabase, testServer } from '../postgres/support/server.js';
import { openReader } from '../support/archive-reader.js';
import { compactArchive, storeQueries } from '../support/history-files.js';
import {
  ledgerOf,
  openPostgres,
  openSqlite,
  shieldPageText,
  storeOriginPass,
  storeShieldPass,
  tableRows,
  type OpenedStore,
} from '../support/page-store.js';
import { describeStores, type StoreKind } from '../support/stores.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 3 * 86_400_000;
const server = await testServer();

async function open(kind: StoreKind): Promise<OpenedStore> {
  return kind === 'SQLite' ? openSqlite(() => NOW) : openPostgres(server!, () => NOW);
}

/** An entry's JSON text; `raw` fields are written as given (numbers beyond 2^53, escapes), others as JSON. */
function entry(fields: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const parts = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  for (const [k, v] of Object.entries(raw)) parts.push(`${JSON.stringify(k)}:${v}`);
  return `{${parts.join(',')}}`;
}

/** `n` characters that do not compress (PostgreSQL compresses a wide index value that does). */
function incompressible(n: number, salt: string): string {
  let text = '';
  for (let i = 0; text.length < n; i++) text += createHash('sha256').update(`${salt}${i}`).digest('hex');
  return text.slice(0, n);
}

const at = (minute: number) => DAY_START + minute * 60_000;
const key = (source: 'origin' | 'shield', zone: number): DayKey => ({ source, zone, day: DAY });

describeStores('values at the limits', (kind) => {
  let s: OpenedStore;
  beforeAll(async () => {
    s = await open(kind);
  });
  afterAll(async () => s?.close());

  // A StatusCode of 1e21 failed the page on PostgreSQL (bigint refused "1e+21"); 2^60 was stored
  // rounded and then failed `report origin` (parseInt8: beyond 2^53). SQLite stored both.
  it('1: a status code that is not an HTTP status (0–9999) is NULL in status_code, its text kept in log', async () => {
    const k = key('origin', 11);
    const logs = [
      '{"StatusCode":1e21,"RequestUrl":"/a"}',
      '{"StatusCode":1152921504606846976,"RequestUrl":"/b"}',
      '{"StatusCode":502,"RequestUrl":"/c"}',
      '{"StatusCode":-1}',
      '{"StatusCode":502.5}',
      '{"StatusCode":10000}',
    ];
    const elements = logs.map((log, i) => entry({ logId: `o${i}`, timestamp: at(i), log }));
    elements.push(entry({ logId: 'o6', timestamp: at(6), labels: { StatusCode: '99999' } }));
    const stored = await storeOriginPass(s.store, k, elements, NOW);
    expect(stored.map((r) => r.inserted)).toEqual([7]);
    const rows = await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 11');
    expect(rows.map((r) => [r.log_id, r.status_code])).toEqual([
      ['o0', null],
      ['o1', null],
      ['o2', 502],
      ['o3', null],
      ['o4', null],
      ['o5', null],
      ['o6', null],
    ]);
    expect(rows.slice(0, 6).map((r) => r.log)).toEqual(logs);
    const top = await s.store.reports.snapshot((r) =>
      r.rollupTop('origin', { zone: 11, startMs: DAY_START, endMs: NOW }, 'status_code', null),
    );
    expect(top).toEqual([
      { key: null, count: 6 },
      { key: 502, count: 1 },
    ]);
  });

  // A logId of 3,200 characters failed the page on PostgreSQL: index row size 3232 exceeds btree
  // version 4 maximum 2704. Long rule, severity, status or error-code values hit the same limit in the
  // rollups' keys.
  it('2: a logId beyond the key limit is quarantined with a reason; long rollup values are stored exactly', async () => {
    const k = key('shield', 12);
    const long = (c: string) => incompressible(3_000, c);
    const page = [
      entry({ logId: incompressible(3_200, 'id'), timestamp: at(1) }),
      entry({
        logId: 'long-labels',
        timestamp: at(2),
        labels: { ruleId: long('r'), severity: long('s'), status: long('t'), country: long('c') },
      }),
      entry({ logId: 'plain', timestamp: at(3), labels: { ruleId: 'r1' } }),
    ];
    const [stored] = await storeShieldPass(s.store, k, [page], NOW);
    expect(stored).toMatchObject({ inserted: 2, quarantineInserted: 1 });
    const rows = await tableRows(s.reader, 'shield_event_logs', 'shield_zone_id = 12');
    expect(rows.map((r) => [r.log_id, r.rule_id, r.severity, r.status, r.country])).toEqual([
      ['long-labels', long('r'), long('s'), long('t'), long('c')],
      ['plain', 'r1', null, null, null],
    ]);
    const [q] = await s.store.quarantine.list({ source: 'shield', zone: 12 });
    expect(q).toMatchObject({ page: 1, position: 0 });
    expect(q!.reason).toMatch(/logId: .*3200 bytes.*longer than.*2048/);
    const rollup = await tableRows(s.reader, 'shield_hourly', 'shield_zone_id = 12');
    expect(rollup).toHaveLength(2);
    const shortened = rollup.find((r) => r.rule_id !== 'r1')!;
    for (const c of ['rule_id', 'severity', 'status'] as const) {
      const v = shortened[c] as string;
      expect(Buffer.byteLength(v)).toBeLessThanOrEqual(256);
      expect(v.startsWith(long(c === 'rule_id' ? 'r' : c === 'severity' ? 's' : 't').slice(0, 100))).toBe(
        true,
      );
    }

    const o = key('origin', 12);
    await storeOriginPass(
      s.store,
      o,
      [entry({ logId: 'long-code', timestamp: at(4), log: JSON.stringify({ ErrorCode: long('e') }) })],
      NOW,
    );
    const [row] = await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 12');
    expect(row!.error_code).toBe(long('e'));
  });

  // A timestamp in year 9999 failed the page on PostgreSQL: partitionOf built the bound `+010000-01`
  // for the quarantine partition it made for the entry's day.
  it('3: entries at the ends of the timestamp range are stored beside a quarantined entry', async () => {
    const k = key('shield', 13);
    const ends = [0, Date.UTC(9999, 11, 31, 23, 59, 59, 999), 8.64e15];
    const page = [
      ...ends.map((timestamp, i) => entry({ logId: `end-${i}`, timestamp })),
      entry({ logId: null, timestamp: at(1) }),
    ];
    const [stored] = await storeShieldPass(s.store, k, [page], NOW);
    expect(stored).toMatchObject({ inserted: 3, quarantineInserted: 1 });
    const rows = await tableRows(s.reader, 'shield_event_logs', 'shield_zone_id = 13');
    expect(rows.map((r) => r.timestamp)).toEqual(ends);
    expect(await ledgerOf(s.store, k)).toMatchObject({ archived_entries: 3, quarantined_entries: 1 });
    if (kind === 'PostgreSQL') {
      // Quarantined entries are filed under the day fetched: no partition for the entries' own days.
      const parts = await s.reader.all<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'quarantined_entries'::regclass ORDER BY 1`,
      );
      expect(parts.map((p) => p.name)).not.toContain('quarantined_entries_19700101');
      expect(parts.map((p) => p.name)).not.toContain('quarantined_entries_99991231');
      expect(parts.map((p) => p.name)).toContain('quarantined_entries_20261120');
    }
  });

  // A Guardian counter of 2^63 or more failed the snapshot on PostgreSQL (out of range for bigint).
  it('4: a Guardian counter that is not a whole number below 2^53 is NULL, its value kept in counters', async () => {
    const metrics = JSON.parse(
      '{"data":{"totalBlockedRequests":9223372036854775808,"totalLoggedRequests":12,' +
        '"totalRateLimited":-3,"totalRequestsInspected":1.5,"totalFailedRequestValidation":9007199254740993,' +
        '"totalFailedAuthenticationEnforcement":null,"overviewPastTwentyEightDays":{"a":1}}}',
    ) as ApiGuardianMetrics;
    const id = await s.store.guardian.add(14, new Date(NOW), metrics);
    const [snap] = await s.reader.all<Record<string, unknown>>(
      'SELECT * FROM api_guardian_snapshots WHERE id = ?',
      id,
    );
    expect(snap).toMatchObject({
      total_blocked_requests: null,
      total_logged_requests: 12,
      total_rate_limited: null,
      total_requests_inspected: null,
      total_failed_request_validation: null,
      total_failed_authentication_enforcement: null,
      overview: '{"a":1}',
    });
    expect(JSON.parse(snap!.counters as string)).toEqual({
      totalBlockedRequests: 9223372036854775808,
      totalLoggedRequests: 12,
      totalRateLimited: -3,
      totalRequestsInspected: 1.5,
      totalFailedRequestValidation: 9007199254740992,
      totalFailedAuthenticationEnforcement: null,
    });
    // Reading the snapshots back (reports, the counter rules) works.
    expect(await s.store.guardian.list(14)).toHaveLength(1);
  });

  // U+0000 was quarantined on PostgreSQL only, by its place in the batch (-(index + 1)) and not in the
  // page, so a re-fetch could not find it; SQLite stored it as a row.
  it('5: an entry holding U+0000 is quarantined at its place in the page on both stores; a re-fetch adds nothing', async () => {
    const k = key('shield', 15);
    const page = [
      entry({ logId: 'ok-1', timestamp: at(1) }),
      entry({ logId: 'nul-message', timestamp: at(2), log: '{"Message":"a\\u0000b"}' }),
      entry({ logId: 'ok-2', timestamp: at(3) }),
      '{"logId":"nul\\u0000id","timestamp":' + at(4) + '}',
    ];
    const first = await storeShieldPass(s.store, k, [page], NOW);
    expect(first).toMatchObject([{ inserted: 2, quarantineInserted: 2 }]);
    const q = await s.store.quarantine.list({ source: 'shield', zone: 15 });
    expect(q.map((r) => [r.page, r.position])).toEqual([
      [1, 1],
      [1, 3],
    ]);
    expect(q[0]!.reason).toMatch(/^message: .*U\+0000/);
    expect(q[1]!.reason).toMatch(/^logId: .*U\+0000/);
    expect((JSON.parse(q[1]!.raw) as { logId: string }).logId).toBe('nul\u0000id');
    const again = await storeShieldPass(s.store, k, [page], NOW + 1);
    expect(again).toMatchObject([{ inserted: 0, quarantineInserted: 0 }]);
    expect(await ledgerOf(s.store, k)).toMatchObject({
      entries: 4,
      quarantined: 2,
      archived_entries: 2,
      quarantined_entries: 2,
    });
  });

  // Two logIds that differ only in a lone surrogate became one entry on PostgreSQL (both were sent as
  // U+FFFD); SQLite stored them as invalid UTF-8.
  it('6: lone surrogates are quarantined, never stored as text, each entry kept apart', async () => {
    const k = key('shield', 16);
    const page = [
      `{"logId":"id-\\ud800","timestamp":${at(1)}}`,
      `{"logId":"id-\\udc00","timestamp":${at(1)}}`,
      `{"logId":"pair-\\ud83d\\ude00","timestamp":${at(2)}}`,
      `{"logId":"label","timestamp":${at(3)},"labels":{"country":"\\udfff"}}`,
    ];
    const [stored] = await storeShieldPass(s.store, k, [page], NOW);
    expect(stored).toMatchObject({ inserted: 1, quarantineInserted: 3 });
    const rows = await tableRows(s.reader, 'shield_event_logs', 'shield_zone_id = 16');
    expect(rows.map((r) => r.log_id)).toEqual(['pair-\ud83d\ude00']);
    const q = await s.store.quarantine.list({ source: 'shield', zone: 16 });
    expect(q.map((r) => [r.position, r.reason.split(':')[0]])).toEqual([
      [0, 'logId'],
      [1, 'logId'],
      [3, 'country'],
    ]);
    expect(q.map((r) => (JSON.parse(r.raw) as { logId: string }).logId)).toEqual([
      'id-\ud800',
      'id-\udc00',
      'label',
    ]);
    expect(q[0]!.reason).toMatch(/lone surrogate/);
  });

  // A label named __proto__ was dropped from extra_labels on both stores.
  it('7: labels named __proto__, constructor or toString are kept', async () => {
    const k = key('shield', 17);
    const page = [
      `{"logId":"p","timestamp":${at(1)},"labels":{"asn":"AS1","__proto__":"x","constructor":{"a":1},"toString":"t"}}`,
    ];
    await storeShieldPass(s.store, k, [page], NOW);
    const [row] = await tableRows(s.reader, 'shield_event_logs', 'shield_zone_id = 17');
    expect(row!.asn).toBe('AS1');
    expect(row!.extra_labels).toBe('{"__proto__":"x","constructor":"{\\"a\\":1}","toString":"t"}');

    const o = key('origin', 17);
    await storeOriginPass(s.store, o, [`{"logId":"p","timestamp":${at(1)},"labels":{"__proto__":"y"}}`], NOW);
    const [orow] = await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 17');
    expect(orow!.labels).toBe('{"__proto__":"y"}');
  });

  // labels nested 20,000 deep threw `Maximum call stack size exceeded` for the whole page (Shield) or
  // the whole day (origin): retried, then failed, the other entries lost.
  it('8: deeply nested labels quarantine their entry only, with a reason; the page is stored', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const page = [
      entry({ logId: 'before', timestamp: at(1) }),
      `{"logId":"deep","timestamp":${at(2)},"labels":{"a":${deep}}}`,
      `{"logId":null,"timestamp":${at(3)},"labels":${deep}}`,
      `{"logId":"deep-log","timestamp":${at(4)},"log":${deep}}`,
      entry({ logId: 'after', timestamp: at(5) }),
    ];
    const k = key('shield', 18);
    const [stored] = await storeShieldPass(s.store, k, [page], NOW);
    expect(stored).toMatchObject({ inserted: 2, quarantineInserted: 3 });
    const q = await s.store.quarantine.list({ source: 'shield', zone: 18 });
    expect(q.map((r) => r.position)).toEqual([1, 2, 3]);
    expect(q[0]!.reason).toMatch(/^labels: nested deeper than 256 levels/);
    expect(q[2]!.reason).toMatch(/^log: nested deeper than 256 levels/);
    // The raw text is the entry's JSON, exactly.
    expect(q.map((r) => r.raw)).toEqual([page[1], page[2], page[3]]);

    const o = key('origin', 18);
    await storeOriginPass(s.store, o, page, NOW);
    const oq = await s.store.quarantine.list({ source: 'origin', zone: 18 });
    expect(oq.map((r) => [r.position, r.raw])).toEqual([
      [1, page[1]],
      [2, page[2]],
      [3, page[3]],
    ]);
    const rows = await tableRows(s.reader, 'origin_error_logs', 'pull_zone_id = 18');
    expect(rows.map((r) => r.log_id)).toEqual(['before', 'after']);
  });

  // A zone id of 16 digits lost its history (the listing of zone directories matched 15), and a timestamp
  // of 8.64e15 read as NULL `time` on SQLite's SQL and as the year 275760 on the history's.
  it('10: a 16-digit zone id and the last timestamp read the same before the history holds them and after', async () => {
    const zone = Number.MAX_SAFE_INTEGER;
    const k = key('shield', zone);
    const ends = [at(5), Date.UTC(9999, 11, 31, 23, 59, 59, 999), 8.64e15];
    const page = ends.map((timestamp, i) => entry({ logId: `z${i}`, timestamp }));
    await storeShieldPass(s.store, k, [page], NOW);
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-ends-'));
    const where =
      kind === 'SQLite' ? { dbPath: s.where, databaseUrl: undefined } : { dbPath: '', databaseUrl: s.where };
    const queries = archiveQueries({ root: join(dir, 'history'), store: storeQueries(where) });
    const read = () =>
      queries.readOnly(
        `SELECT shield_zone_id, log_id, timestamp, "time", log_date FROM shield_event_logs WHERE shield_zone_id = ${zone} ORDER BY timestamp`,
        { timeoutMs: 30_000 },
        (c) => c.next(10),
      );
    try {
      const hot = await read();
      expect(hot.map((r) => r.map((v) => (typeof v === 'bigint' ? String(v) : v)))).toEqual([
        [String(zone), 'z0', String(at(5)), new Date(at(5)).toISOString(), DAY],
        [String(zone), 'z1', String(ends[1]), '9999-12-31T23:59:59.999Z', DAY],
        [String(zone), 'z2', String(ends[2]), '275760-09-13 00:00:00', DAY],
      ]);
      const pass = await compactArchive({ dir, ...where }, () => NOW + 7 * 86_400_000, {
        root: join(dir, 'history'),
        hotDays: 0,
        filter: { zones: [zone] },
      });
      expect(pass.failed).toEqual([]);
      expect(pass.pruned.entries).toBe(3);
      expect(await read()).toEqual(hot);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the quarantined count of a page', () => {
  // edgelog_entries_quarantined_total is counted from the page's rejected entries: an entry PostgreSQL
  // quarantined inside its store (U+0000) was missing from it.
  it('includes an entry quarantined for a value no store can hold', () => {
    const page = decodeShieldPage(
      shieldPageText(
        [entry({ logId: 'a', timestamp: at(1) }), `{"logId":"b","timestamp":${at(2)},"log":"\\u0000"}`],
        null,
      ),
    );
    expect(page.batch.logId).toEqual(['a']);
    expect(page.batch.rejected.map((r) => [r.position, r.reason.split(':')[0]])).toEqual([[1, 'log']]);
  });
});

describe.skipIf(server === null)('migrate-store and a re-fetch on PostgreSQL', () => {
  // After migrate-store copied an entry holding U+0000 (as the text `\u0000`), a re-fetch of its day on
  // PostgreSQL quarantined it: one entry counted twice, archived and quarantined.
  it('11: an entry holding U+0000 is counted once, before and after the copy', async () => {
    const sqlite = await openSqlite(() => NOW);
    const target = await openPostgres(server!, () => NOW);
    try {
      const k = key('shield', 21);
      const page = [
        entry({ logId: 'ok', timestamp: at(1) }),
        entry({ logId: 'nul', timestamp: at(2), log: '{"Url":"/\\u0000"}' }),
      ];
      await storeShieldPass(sqlite.store, k, [page], NOW);
      await sqlite.store.close();
      const copied = await migrateStore({ from: sqlite.where, to: target.where, now: () => NOW });
      expect(copied.mismatches).toEqual([]);
      const before = await ledgerOf(target.store, k);
      expect(before).toMatchObject({ archived_entries: 1, quarantined_entries: 1 });
      await storeShieldPass(target.store, k, [page], NOW + 1);
      expect(await ledgerOf(target.store, k)).toMatchObject({ archived_entries: 1, quarantined_entries: 1 });
      expect(await target.store.quarantine.list({ zone: 21 })).toHaveLength(1);
      expect(await tableRows(target.reader, 'shield_event_logs', 'shield_zone_id = 21')).toHaveLength(1);
    } finally {
      await target.close();
      await sqlite.close().catch(() => {});
    }
  });
});

/** A copy of a migrations folder with the files numbered below `before` only: an earlier edgelog's. */
function migrationsBefore(dir: string, before: number): string {
  const copy = mkdtempSync(join(tmpdir(), 'edgelog-migrations-'));
  for (const f of readdirSync(dir)) {
    const n = /^(\d+)_.*\.sql$/.exec(f);
    if (n && Number(n[1]) < before) copyFileSync(join(dir, f), join(copy, f));
  }
  return copy;
}

const TWO_60 = '1152921504606846976';
const HOUR0 = DAY_START;

/** What an earlier edgelog could store: a status code of 2^60 (rounded) and a counter beyond 2^53. */
const LEGACY_SQL = [
  `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, status_code, error_code, log)
   VALUES (31, 'big', '${DAY}', ${HOUR0 + 1}, ${TWO_60}, 'e', '{"StatusCode":${TWO_60}}'),
          (31, 'ok', '${DAY}', ${HOUR0 + 2}, 502, 'e', '{"StatusCode":502}')`,
  `INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
   VALUES (31, ${HOUR0}, ${TWO_60}, 'e', 1), (31, ${HOUR0}, 502, 'e', 1), (31, ${HOUR0}, 0, 'e', 2)`,
  `INSERT INTO api_guardian_snapshots (shield_zone_id, taken_at, total_blocked_requests, total_logged_requests)
   VALUES (31, '${new Date(NOW).toISOString()}', ${TWO_60}, 5)`,
];

describeStores('an archive an earlier edgelog wrote', (kind) => {
  // A status code of 2^60 stored (rounded) by an earlier edgelog failed `report origin` on PostgreSQL:
  // parseInt8, integer 1152921504606846976 is beyond 2^53.
  it('1, 4: values that do not fit are NULL once migrated, and report origin reads the archive', async () => {
    const dirs: string[] = [];
    let close: () => Promise<void>;
    let target: { path: string; url?: string };
    if (kind === 'SQLite') {
      const dir = mkdtempSync(join(tmpdir(), 'edgelog-legacy-'));
      dirs.push(dir, migrationsBefore(MIGRATIONS_DIR, 5));
      const path = join(dir, 'archive.db');
      const db = openDatabase(path);
      migrate(db, dirs[1]);
      for (const sql of LEGACY_SQL) db.exec(sql);
      db.close();
      target = { path };
      close = () => Promise.resolve();
    } else {
      const db = await createTestDatabase(server!);
      dirs.push(migrationsBefore(POSTGRES_MIGRATIONS_DIR, 4));
      const pool = openPool({ url: db.url, max: 2 }, () => {});
      try {
        await migratePostgres(pool, dirs[0]);
        await new Partitions(pool).ensureDays([DAY as Day]);
        for (const sql of LEGACY_SQL) await pool.query(sql);
      } finally {
        await pool.end();
      }
      target = { path: '', url: db.url };
      close = () => db.drop();
    }
    const store = await openStore(target, { now: () => NOW });
    const reader = await openReader(
      kind === 'SQLite' ? { store: 'sqlite', path: target.path } : { store: 'postgres', url: target.url! },
    );
    try {
      const top = await store.reports.snapshot((r) =>
        r.rollupTop('origin', { zone: 31, startMs: DAY_START, endMs: NOW }, 'status_code', null),
      );
      expect(top).toEqual([
        { key: null, count: 3 },
        { key: 502, count: 1 },
      ]);
      const rows = await tableRows(reader, 'origin_error_logs', 'pull_zone_id = 31');
      expect(rows.map((r) => [r.log_id, r.status_code, r.log])).toEqual([
        ['big', null, `{"StatusCode":${TWO_60}}`],
        ['ok', 502, '{"StatusCode":502}'],
      ]);
      const [snap] = await store.guardian.list(31);
      expect(snap).toMatchObject({ total_blocked_requests: null, total_logged_requests: 5 });
      expect(JSON.parse(snap!.counters!)).toMatchObject({
        totalBlockedRequests: 2 ** 60,
        totalLoggedRequests: 5,
      });
    } finally {
      await reader.close();
      await store.close();
      await close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });
});
