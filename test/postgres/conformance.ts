// The store conformance suite: what every ArchiveStore must do, written once and run against each
// store (conformance-sqlite.test.ts, conformance-postgres.test.ts). The SQLite store's behaviour is the
// specification; the suite reads the archives back with SQL both dialects share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiGuardianMetrics } from '../../src/api/index.js';
import { originBatch, shieldBatch, type OriginRow, type ShieldRow } from '../../src/store/rows.js';
import { zoneKey } from '../../src/store/archive-reads.js';
import type { ArchiveReader, ArchiveStore, DayKey, PageInput, RejectedEntry } from '../../src/store/store.js';
import { StoreQueryError } from '../../src/store/store-query-error.js';

export interface StoreUnderTest {
  store: ArchiveStore;
  /** A second store on the same archive (another connection, as another worker would have). */
  another(): Promise<ArchiveStore>;
  /**
   * Runs statements on the archive through a connection of the test's own, outside the store: the
   * triggers that make a store's write fail on purpose.
   */
  exec(sql: string): Promise<void>;
  /** The same archive as the commands that only read open it (openReader). */
  reader(): Promise<ArchiveReader>;
  cleanup(): Promise<void>;
}

export const DAY = '2026-11-20';
export const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const HOUR = 3_600_000;
const DAY_MS = 86_400_000;
export const NOW = DAY_START + 3 * 86_400_000;
const LEASE = 60_000;

/** Rows of a query as objects, integers as numbers (through the store's read-only query path). */
export async function select(store: ArchiveStore, sql: string): Promise<Array<Record<string, unknown>>> {
  return store.queries.readOnly(sql, { timeoutMs: 10_000 }, async (cursor) => {
    const rows: unknown[][] = [];
    for (let batch = await cursor.next(500); batch.length > 0; batch = await cursor.next(500))
      rows.push(...batch);
    const names = cursor.columns;
    return rows.map((r) =>
      Object.fromEntries(r.map((v, i) => [names[i]!, typeof v === 'bigint' ? Number(v) : v])),
    );
  });
}

export async function count(store: ArchiveStore, sql: string): Promise<number> {
  const [row] = await select(store, sql);
  return Number(Object.values(row!)[0]);
}

export function originRows(n: number, from = 0, at = DAY_START): OriginRow[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      logId: `o-${i}`,
      timestamp: at + ((i * 997_003) % DAY_MS), // spread over the day's hours
      requestUrl: `https://cdn.example/p/${i % 7}`,
      message: `failed ${i}`,
      errorCode: i % 5 === 0 ? null : ['http_timeout', 'dns_lookup'][i % 2]!,
      statusCode: i % 6 === 0 ? null : [502, 504, 404][i % 3]!,
      serverZone: i % 4 === 0 ? null : 'DE',
      log: i % 9 === 0 ? '{bad' : `{"i":${i},"text":"tab\\there\\nnew \\\\ line"}`,
      labels: '{"ServerZone":"DE"}',
      parseError: i % 9 === 0 ? 'log is not valid JSON' : null,
    };
  });
}

export function shieldRows(n: number, from = 0, at = DAY_START): ShieldRow[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      logId: `s-${i}`,
      timestamp: at + ((i * 613_001) % DAY_MS),
      asn: `AS${i % 3}`,
      country: ['DE', 'US', null][i % 3]!,
      ruleId: i % 8 === 0 ? null : `rule-${i % 4}`,
      severity: ['LOW', 'HIGH'][i % 2]!,
      method: 'GET',
      ruleGroup: 'g',
      status: i % 10 === 0 ? null : ['BLOCKED', 'LOGGED'][i % 2]!,
      serverZone: 'EU',
      url: `/x/${i}`,
      remoteIp: '10.0.0.x',
      message: `Rule ${i % 4}`,
      log: `{"i":${i}}`,
      parseError: null,
      extraLabels: i % 2 ? '{"extra":"1"}' : null,
    };
  });
}

const rejected = (n: number, page = 0): RejectedEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    position: i * 3 + 1,
    raw: JSON.stringify({ logId: null, n: i, page }),
    reason: 'logId: expected a non-empty string, got null',
  }));

export function shieldPage(rows: ShieldRow[], page: number, nextToken: string | null, reject = 0): PageInput {
  const batch = shieldBatch(rows);
  batch.rejected = rejected(reject, page);
  return { source: 'shield', batch, page, nextToken, pages: 1 };
}

export function originPage(rows: OriginRow[], reject = 0, pages: 0 | 1 = 1): PageInput {
  const batch = originBatch(rows);
  batch.rejected = rejected(reject);
  return { source: 'origin', batch, page: 0, nextToken: null, pages };
}

const ORIGIN_ROLLUP_FROM_ROWS = `SELECT pull_zone_id, timestamp - timestamp % ${HOUR} AS hour,
  coalesce(status_code, 0) AS status_code, coalesce(error_code, '') AS error_code, count(*) AS count
  FROM origin_error_logs GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const ORIGIN_ROLLUP = `SELECT pull_zone_id, hour, status_code, error_code, count FROM origin_hourly
  ORDER BY 1, 2, 3, 4`;
const SHIELD_ROLLUP_FROM_ROWS = `SELECT shield_zone_id, timestamp - timestamp % ${HOUR} AS hour,
  coalesce(rule_id, '') AS rule_id, coalesce(severity, '') AS severity, coalesce(status, '') AS status,
  count(*) AS count FROM shield_event_logs GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
const SHIELD_ROLLUP = `SELECT shield_zone_id, hour, rule_id, severity, status, count FROM shield_hourly
  ORDER BY 1, 2, 3, 4, 5`;

/**
 * A trigger that makes every update of one zone's ledger rows fail, in each dialect (the zone is the
 * test's own number, never outside text).
 */
const REFUSE_LEDGER: Record<ArchiveStore['dialect'], { create: (zone: number) => string; drop: string }> = {
  sqlite: {
    create: (zone) => `CREATE TRIGGER edgelog_test_refuse_ledger BEFORE UPDATE ON ingest_ledger
      WHEN NEW.zone_id = ${zone} BEGIN SELECT RAISE(ABORT, 'the test refuses this ledger update'); END`,
    drop: 'DROP TRIGGER edgelog_test_refuse_ledger',
  },
  postgres: {
    create: (zone) => `CREATE FUNCTION edgelog_test_refuse_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the test refuses this ledger update'; END $$;
      CREATE TRIGGER edgelog_test_refuse_ledger BEFORE UPDATE ON ingest_ledger
      FOR EACH ROW WHEN (NEW.zone_id = ${zone}) EXECUTE FUNCTION edgelog_test_refuse_ledger()`,
    drop: `DROP TRIGGER edgelog_test_refuse_ledger ON ingest_ledger;
      DROP FUNCTION edgelog_test_refuse_ledger()`,
  },
};

/** The conformance suite against the stores `open` makes (one fresh archive per test). */
export function storeConformance(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ArchiveStore conformance: ${name}`, () => {
    let t: StoreUnderTest;
    let store: ArchiveStore;
    let zone = 100;
    /** A day key of its own for each test (the archive is shared by the tests of this file). */
    const freshKey = (source: 'origin' | 'shield'): DayKey => ({ source, zone: ++zone, day: DAY });

    beforeAll(async () => {
      t = await open();
      store = t.store;
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('stores a page with its rollup and ledger progress; the same page again adds nothing', async () => {
      const key = freshKey('shield');
      const claim = await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      expect(claim).toMatchObject({ kind: 'claimed', resumed: false });
      const rows = shieldRows(300);
      const firstTs = Math.min(...rows.map((r) => r.timestamp));
      const lastTs = Math.max(...rows.map((r) => r.timestamp));
      const first = await store.storePage(key, 'w1', shieldPage(rows, 1, 't2', 2), NOW, LEASE);
      expect(first).toEqual({
        kind: 'stored',
        inserted: 300,
        malformed: 0,
        firstTs,
        lastTs,
        quarantineInserted: 2,
      });
      const rollupBefore = await select(
        store,
        `${SHIELD_ROLLUP.replace('ORDER', `WHERE shield_zone_id = ${key.zone} ORDER`)}`,
      );
      const again = await store.storePage(key, 'w1', shieldPage(rows, 1, 't2', 2), NOW + 1, LEASE);
      expect(again).toMatchObject({ kind: 'stored', inserted: 0, quarantineInserted: 0 });
      expect(
        await count(store, `SELECT count(*) FROM shield_event_logs WHERE shield_zone_id = ${key.zone}`),
      ).toBe(300);
      expect(
        await select(store, `${SHIELD_ROLLUP.replace('ORDER', `WHERE shield_zone_id = ${key.zone} ORDER`)}`),
      ).toEqual(rollupBefore);
      const row = (await store.ledger.get(key))!;
      expect(row).toMatchObject({
        state: 'running',
        next_token: 't2',
        pages: 2,
        entries: 604,
        new_entries: 300,
        quarantined: 4,
        archived_entries: 300,
        quarantined_entries: 2,
        first_ts: firstTs,
        last_ts: lastTs,
        lease_owner: 'w1',
        lease_until: NOW + 1 + LEASE,
      });
    });

    it('counts into the rollups exactly the rows stored, through partly archived pages', async () => {
      const key = freshKey('origin');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = originRows(400);
      await store.storePage(key, 'w1', originPage(rows.slice(0, 150)), NOW, LEASE);
      // Overlaps the first page by 50 rows: only 200 are new.
      const r = await store.storePage(key, 'w1', originPage(rows.slice(100, 350), 0, 0), NOW, LEASE);
      expect(r).toMatchObject({ kind: 'stored', inserted: 200 });
      await store.storePage(key, 'w1', originPage(rows.slice(300)), NOW, LEASE);
      const where = `WHERE pull_zone_id = ${key.zone}`;
      expect(await count(store, `SELECT count(*) FROM origin_error_logs ${where}`)).toBe(400);
      expect(await select(store, ORIGIN_ROLLUP.replace('ORDER', `${where} ORDER`))).toEqual(
        await select(store, ORIGIN_ROLLUP_FROM_ROWS.replace('GROUP', `${where} GROUP`)),
      );
      expect((await store.ledger.get(key))!).toMatchObject({ pages: 2, archived_entries: 400, entries: 500 });
      // Values round-trip exactly (tabs, newlines, backslashes, NULLs).
      const [stored] = await select(
        store,
        `SELECT log, error_code, status_code, server_zone, parse_error, time FROM origin_error_logs
         ${where} AND log_id = 'o-1'`,
      );
      const o1 = rows[1]!;
      expect(stored).toEqual({
        log: o1.log,
        error_code: o1.errorCode,
        status_code: o1.statusCode,
        server_zone: o1.serverZone,
        parse_error: null,
        time: new Date(o1.timestamp).toISOString(),
      });
    });

    it('rollups equal GROUP BY of the Shield rows', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = shieldRows(500);
      await store.storePage(key, 'w1', shieldPage(rows.slice(0, 300), 1, 't2'), NOW, LEASE);
      await store.storePage(key, 'w1', shieldPage(rows.slice(250), 2, null), NOW, LEASE);
      const where = `WHERE shield_zone_id = ${key.zone}`;
      expect(await select(store, SHIELD_ROLLUP.replace('ORDER', `${where} ORDER`))).toEqual(
        await select(store, SHIELD_ROLLUP_FROM_ROWS.replace('GROUP', `${where} GROUP`)),
      );
    });

    it('keeps a rejected entry once per place and text; the ledger counts each pass', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.storePage(key, 'w1', shieldPage([], 1, 't2', 3), NOW, LEASE);
      const again = await store.storePage(key, 'w1', shieldPage([], 1, 't2', 3), NOW, LEASE);
      expect(again).toMatchObject({ kind: 'stored', inserted: 0, quarantineInserted: 0 });
      // Entries at the same places of another page are other entries.
      const other = await store.storePage(key, 'w1', shieldPage([], 2, null, 3), NOW, LEASE);
      expect(other).toMatchObject({ quarantineInserted: 3 });
      const list = await store.quarantine.list({ source: 'shield', zone: key.zone });
      expect(list.map((q) => [q.page, q.position])).toEqual([
        [1, 1],
        [1, 4],
        [1, 7],
        [2, 1],
        [2, 4],
        [2, 7],
      ]);
      expect(list[0]).toMatchObject({ log_date: DAY, reason: expect.stringContaining('logId') as string });
      expect((await store.ledger.get(key))!).toMatchObject({
        quarantined: 9,
        quarantined_entries: 6,
        entries: 9,
      });
    });

    it('counts a page stored in parts with its last part, and keeps the checkpoint on it until then', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = shieldRows(30);
      const part = (from: number, to: number, last: boolean): PageInput => {
        const batch = shieldBatch(rows.slice(from, to));
        if (last) batch.rejected = [{ position: 30, raw: '{"logId":null}', reason: 'logId: null' }];
        const counts = last
          ? { entries: 31, malformed: 0, quarantined: 1 }
          : { entries: 0, malformed: 0, quarantined: 0 };
        return { source: 'shield', batch, page: 1, nextToken: last ? 't2' : '', pages: last ? 1 : 0, counts };
      };
      await store.storePage(key, 'w1', part(0, 10, false), NOW, LEASE);
      expect((await store.ledger.get(key))!).toMatchObject({
        next_token: '',
        pages: 0,
        entries: 0,
        new_entries: 10,
        archived_entries: 10,
      });
      await store.storePage(key, 'w1', part(10, 20, false), NOW, LEASE);
      const last = await store.storePage(key, 'w1', part(20, 30, true), NOW, LEASE);
      expect(last).toMatchObject({ kind: 'stored', inserted: 10, quarantineInserted: 1 });
      expect((await store.ledger.get(key))!).toMatchObject({
        next_token: 't2',
        pages: 1,
        entries: 31,
        new_entries: 30,
        quarantined: 1,
        archived_entries: 30,
        quarantined_entries: 1,
      });
    });

    it('refuses a day held by a live lease, hands over an expired or abandoned one', async () => {
      const key = freshKey('shield');
      const other = await t.another();
      try {
        expect(await store.ledger.claim(key, 'w1', NOW, LEASE, true)).toMatchObject({ kind: 'claimed' });
        expect(await other.ledger.claim(key, 'w2', NOW + 1000, LEASE, true)).toEqual({
          kind: 'busy',
          owner: 'w1',
          until: NOW + LEASE,
        });
        expect(await store.ledger.renew(key, 'w1', NOW + 2000, LEASE)).toBe(true);
        expect(await other.ledger.renew(key, 'w2', NOW + 2000, LEASE)).toBe(false);
        // The holder is known to be gone: taken at once.
        const gone = await other.ledger.claim(key, 'w2', NOW + 3000, LEASE, true, (o) => o === 'w1');
        expect(gone).toMatchObject({ kind: 'claimed' });
        // Past the lease: taken by time alone.
        const late = NOW + 3000 + LEASE + 1;
        expect(await store.ledger.claim(key, 'w1', late, LEASE, true)).toMatchObject({ kind: 'claimed' });
        expect((await store.ledger.get(key))!.lease_owner).toBe('w1');
      } finally {
        await other.close();
      }
    });

    it('rolls back a page stored by a run that lost its lease', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.storePage(key, 'w1', shieldPage(shieldRows(10), 1, 't2'), NOW, LEASE);
      const taken = await store.ledger.claim(key, 'w2', NOW + LEASE + 1, LEASE, true);
      expect(taken).toMatchObject({ kind: 'claimed', resumed: true });
      const before = (await store.ledger.get(key))!;
      // New rows (the copy path) and re-sent rows (the merge path) alike.
      for (const rows of [shieldRows(20, 10), shieldRows(20, 0)]) {
        const lost = await store.storePage(key, 'w1', shieldPage(rows, 2, 't3', 1), NOW + LEASE + 2, LEASE);
        expect(lost).toEqual({ kind: 'lease-lost' });
      }
      expect(
        await count(store, `SELECT count(*) FROM shield_event_logs WHERE shield_zone_id = ${key.zone}`),
      ).toBe(10);
      expect(await count(store, `SELECT count(*) FROM quarantined_entries WHERE zone_id = ${key.zone}`)).toBe(
        0,
      );
      expect(
        await count(store, `SELECT sum(count) FROM shield_hourly WHERE shield_zone_id = ${key.zone}`),
      ).toBe(10);
      expect(await store.ledger.get(key)).toEqual(before);
      expect(await store.ledger.finish(key, 'w1', 'complete', NOW, NOW + LEASE + 3)).toBe(false);
      await store.ledger.stop(key, 'w1', 'failed', 'too late', NOW + LEASE + 3);
      expect(await store.ledger.get(key)).toEqual(before);
    });

    // The page's rows, rollup counts and quarantined entries commit with its ledger progress or not at all:
    // a ledger update that fails (here a trigger refuses it) must take the rest of the page with it, on
    // the copy path (every row new) and the merge path (some rows archived already) alike. Split into two
    // transactions, rows then ledger, the rows would stay while the ledger never counted them.
    it.each(['shield', 'origin'] as const)(
      'keeps nothing of a page whose ledger update fails (%s)',
      async (source) => {
        const key = freshKey(source);
        const page = (from: number, n: number, pageNo: number, reject: number) => {
          const p =
            source === 'shield'
              ? shieldPage(shieldRows(n, from), pageNo, `t${pageNo + 1}`)
              : originPage(originRows(n, from), 0, pageNo === 1 ? 1 : 0);
          p.batch.rejected = rejected(reject, pageNo); // entries of this page alone, on both sources
          return p;
        };
        const entries = source === 'shield' ? 'shield_event_logs' : 'origin_error_logs';
        const rollup = source === 'shield' ? 'shield_hourly' : 'origin_hourly';
        const zoneColumn = source === 'shield' ? 'shield_zone_id' : 'pull_zone_id';
        const archived = async () => ({
          rows: await count(store, `SELECT count(*) FROM ${entries} WHERE ${zoneColumn} = ${key.zone}`),
          rollup: await count(
            store,
            `SELECT coalesce(sum(count), 0) FROM ${rollup} WHERE ${zoneColumn} = ${key.zone}`,
          ),
          quarantined: await count(
            store,
            `SELECT count(*) FROM quarantined_entries WHERE zone_id = ${key.zone}`,
          ),
          ledger: await store.ledger.get(key),
        });

        await store.ledger.claim(key, 'w1', NOW, LEASE, true);
        await store.storePage(key, 'w1', page(0, 100, 1, 1), NOW, LEASE);
        const before = await archived();
        expect(before).toMatchObject({ rows: 100, rollup: 100, quarantined: 1 });

        const trigger = REFUSE_LEDGER[store.dialect];
        await t.exec(trigger.create(key.zone));
        try {
          // New rows only (PostgreSQL's COPY path), then rows half archived already (its merge path);
          // each page with entries for quarantine that are not there yet.
          for (const [from, pageNo] of [
            [100, 2],
            [50, 3],
          ] as const) {
            const failed = store.storePage(key, 'w1', page(from, 100, pageNo, 2), NOW + pageNo, LEASE);
            await expect(failed).rejects.toThrow(/the test refuses this ledger update/);
            expect(await archived()).toEqual(before);
          }
        } finally {
          await t.exec(trigger.drop);
        }
        // The same page stores whole once the ledger takes it: only the trigger stood in the way.
        const stored = await store.storePage(key, 'w1', page(50, 100, 3, 2), NOW + 4, LEASE);
        expect(stored).toMatchObject({ kind: 'stored', inserted: 50, quarantineInserted: 2 });
        expect(await archived()).toMatchObject({ rows: 150, rollup: 150, quarantined: 3 });
      },
    );

    it('gives a racing claim to exactly one of two connections', async () => {
      const other = await t.another();
      try {
        for (let round = 0; round < 5; round++) {
          const key = freshKey('origin');
          if (round % 2 === 1) {
            // An existing row whose lease ran out.
            await store.ledger.claim(key, 'old', NOW - 2 * LEASE, LEASE, true);
          }
          const results = await Promise.all([
            store.ledger.claim(key, 'a', NOW, LEASE, true),
            other.ledger.claim(key, 'b', NOW, LEASE, true),
          ]);
          expect(results.map((r) => r.kind).sort()).toEqual(['busy', 'claimed']);
          const winner = results[0].kind === 'claimed' ? 'a' : 'b';
          expect((await store.ledger.get(key))!.lease_owner).toBe(winner);
        }
      } finally {
        await other.close();
      }
    });

    it('resumes an interrupted pass from its checkpoint, or starts over when told to', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.storePage(key, 'w1', shieldPage(shieldRows(5), 1, 't2'), NOW, LEASE);
      await store.ledger.stop(key, 'w1', 'running', 'interrupted', NOW + 1);
      expect((await store.ledger.get(key))!).toMatchObject({ lease_owner: null, next_token: 't2', pages: 1 });
      const resumed = await store.ledger.claim(key, 'w2', NOW + 2, LEASE, true);
      expect(resumed).toMatchObject({ kind: 'claimed', resumed: true, row: { next_token: 't2', pages: 1 } });
      const fresh = await store.ledger.claim(key, 'w2', NOW + 3, LEASE, false);
      expect(fresh).toMatchObject({
        kind: 'claimed',
        resumed: false,
        row: { next_token: '', pages: 0, entries: 0, archived_entries: 5, pass_started_at: NOW + 3 },
      });
      // A retryable failure keeps the checkpoint, a permanent one drops it.
      await store.storePage(key, 'w2', shieldPage(shieldRows(5), 1, 't2'), NOW + 4, LEASE);
      await store.ledger.stop(key, 'w2', 'failed', 'HTTP 503', NOW + 5, true);
      expect((await store.ledger.get(key))!).toMatchObject({ state: 'failed', next_token: 't2' });
      await store.ledger.claim(key, 'w2', NOW + 6, LEASE, true);
      await store.ledger.stop(key, 'w2', 'failed', 'HTTP 400', NOW + 7);
      expect((await store.ledger.get(key))!).toMatchObject({ state: 'failed', next_token: null });
    });

    it('keeps complete complete and partial partial, whatever a later pass meets', async () => {
      const key = freshKey('origin');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      expect(await store.ledger.finish(key, 'w1', 'complete', NOW - 5, NOW + 1)).toBe(true);
      expect((await store.ledger.get(key))!).toMatchObject({
        state: 'complete',
        covered_until: NOW - 5,
        finished_at: NOW + 1,
        lease_owner: null,
      });
      for (const [stop, error] of [
        ['failed', 'HTTP 500 with key=[REDACTED]'],
        ['incomplete', 'token repeated'],
        ['expired', 'window'],
        ['running', 'interrupted'],
      ] as const) {
        const claim = await store.ledger.claim(key, 'w2', NOW + 10, LEASE, false);
        expect(claim).toMatchObject({ kind: 'claimed', row: { state: 'complete' } });
        await store.ledger.stop(key, 'w2', stop, error, NOW + 11);
        expect((await store.ledger.get(key))!).toMatchObject({ state: 'complete', last_error: error });
      }
      await store.ledger.claim(key, 'w2', NOW + 12, LEASE, false);
      expect(await store.ledger.finish(key, 'w2', 'partial', NOW - 10, NOW + 13)).toBe(true);
      expect((await store.ledger.get(key))!).toMatchObject({ state: 'complete', covered_until: NOW - 5 });

      const partial = freshKey('origin');
      await store.ledger.claim(partial, 'w1', NOW, LEASE, true);
      await store.ledger.finish(partial, 'w1', 'partial', NOW - 5, NOW + 1);
      await store.ledger.claim(partial, 'w1', NOW + 2, LEASE, false);
      await store.ledger.stop(partial, 'w1', 'failed', 'HTTP 500', NOW + 3);
      expect((await store.ledger.get(partial))!.state).toBe('partial');
      await store.ledger.claim(partial, 'w1', NOW + 4, LEASE, false);
      await store.ledger.stop(partial, 'w1', 'expired', 'window', NOW + 5);
      expect((await store.ledger.get(partial))!).toMatchObject({ state: 'expired', next_token: null });
    });

    it('redacts the error text it stores', async () => {
      const key = freshKey('origin');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.ledger.stop(
        key,
        'w1',
        'failed',
        'GET https://user:hunter22@example.test/x failed',
        NOW + 1,
      );
      expect((await store.ledger.get(key))!.last_error).not.toContain('hunter22');
    });

    it('lists the ledger by source and zone, newest day first', async () => {
      const key = freshKey('origin');
      for (const day of ['2026-11-18', '2026-11-19']) {
        await store.ledger.claim({ ...key, day }, 'w1', NOW, LEASE, true);
      }
      const rows = await store.ledger.list({ source: 'origin', zone: key.zone });
      expect(rows.map((r) => r.log_date)).toEqual(['2026-11-19', '2026-11-18']);
      expect(typeof rows[0]!.zone_id).toBe('number');
    });

    it('answers health: writable, the migrations applied, its size, the newest entry per zone', async () => {
      await expect(store.health.writable()).resolves.toBeUndefined();
      const { files, applied } = await store.health.migrations(10_000);
      expect(files.length).toBeGreaterThan(0);
      expect(applied.map((m) => [m.id, m.checksum])).toEqual(files.map((f) => [f.id, f.checksum]));
      const size = await store.health.size();
      expect(size.database).toBeGreaterThan(0);
      expect(size.wal === undefined).toBe(store.dialect === 'postgres');
      const key = freshKey('origin');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = originRows(5);
      await store.storePage(key, 'w1', originPage(rows), NOW, LEASE);
      const empty = freshKey('shield').zone;
      const newest = store.health.newestEntries({ origin: [key.zone], shield: [empty] });
      const read = await newest();
      expect(read.get(zoneKey('origin', key.zone))).toBe(Math.max(...rows.map((r) => r.timestamp)));
      expect(read.has(zoneKey('shield', empty))).toBe(false);
      // The reader is prepared once and read per call: a later page is seen.
      const later = originRows(1, 99);
      expect(later[0]!.timestamp).toBeGreaterThan(Math.max(...rows.map((r) => r.timestamp)));
      await store.storePage(key, 'w1', originPage(later), NOW, LEASE);
      expect((await newest()).get(zoneKey('origin', key.zone))).toBe(later[0]!.timestamp);
      expect(await store.health.newestEntries({ origin: [], shield: [] })()).toEqual(new Map());
    });

    it('gives the readers the ledger, the latest guardian snapshot, alerts and reports', async () => {
      const key = freshKey('shield');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.storePage(key, 'w1', shieldPage(shieldRows(3), 1, null), NOW, LEASE);
      const g = ++zone;
      await store.guardian.add(g, new Date(NOW), null, { errorKey: 'old' });
      await store.guardian.add(g, new Date(NOW + HOUR), null, { errorKey: 'new' });
      const reader = await t.reader();
      try {
        const ledger = await reader.status.ledgerRows(['shield'], [key.zone]);
        expect(ledger).toEqual(await store.ledger.list({ source: 'shield', zone: key.zone }));
        expect(await reader.status.ledgerRows([], null)).toEqual([]);
        expect(await reader.status.latestGuardian([g])).toEqual([
          { zone: g, lastSnapshot: new Date(NOW + HOUR).toISOString(), lastError: '{"errorKey":"new"}' },
        ]);
        const newest = await reader.status.newestEntries({ origin: [], shield: [key.zone] });
        expect(newest).toEqual(await store.health.newestEntries({ origin: [], shield: [key.zone] })());
        expect(await reader.alerts.listStates()).toEqual(await store.alerts.listStates());
        expect(await reader.alerts.notifications(5)).toEqual(await store.alerts.notifications(5));
        const counted = await reader.queries.readOnly(
          `SELECT count(*) AS n FROM shield_event_logs WHERE shield_zone_id = ${key.zone}`,
          { timeoutMs: 10_000 },
          async (cursor) => [...(await cursor.next(10)), ...(await cursor.next(10))],
        );
        expect(counted.map((r) => Number(r[0]))).toEqual([3]);
        await expect(
          reader.queries.readOnly('DELETE FROM ingest_ledger', { timeoutMs: 10_000 }, (c) => c.next(1)),
        ).rejects.toBeInstanceOf(StoreQueryError);
        const scope = { zone: key.zone, startMs: DAY_START, endMs: DAY_START + DAY_MS };
        const written: string[] = [];
        const sink = { write: (text: string) => Promise.resolve(void written.push(text)) };
        const totals = await reader.report(sink, async (r, out) => {
          await out.write('x');
          return r.snapshot((reads) => reads.zoneTotals('shield', scope));
        });
        expect(totals).toEqual([{ zone: key.zone, count: 3 }]);
        expect(written).toEqual(['x']);
      } finally {
        await reader.close();
      }
    });

    it('keeps silences: those in force at a time, the ones not ended, and ends one once', async () => {
      const row = (id: string, starts: number, ends: number) => ({
        id,
        matchers: JSON.stringify([{ name: 'alertname', op: '=', value: id }]),
        starts_at: starts,
        ends_at: ends,
        comment: id === 'a' ? 'deploy' : null,
        created_at: starts,
      });
      await store.silences.add(row('a', NOW, NOW + 100));
      await store.silences.add(row('b', NOW + 10, NOW + 20));
      await expect(store.silences.add(row('a', NOW, NOW + 5))).rejects.toThrow();
      expect((await store.silences.list({ activeAt: NOW + 15 })).map((s) => s.id)).toEqual(['b', 'a']);
      expect((await store.silences.list({ activeAt: NOW + 20 })).map((s) => s.id)).toEqual(['a']);
      expect(await store.silences.list({ endedAfter: NOW + 50 })).toEqual([row('a', NOW, NOW + 100)]);
      expect(await store.silences.expire('a', NOW + 30)).toBe('expired');
      expect(await store.silences.expire('a', NOW + 31)).toBe('ended');
      expect(await store.silences.expire('zz', NOW + 31)).toBe('unknown');
      expect(await store.silences.list({ activeAt: NOW + 40 })).toEqual([]);
      expect((await store.silences.list()).map((s) => [s.id, s.ends_at])).toEqual([
        ['b', NOW + 20],
        ['a', NOW + 30],
      ]);
      const reader = await t.reader();
      try {
        expect(await reader.silences.list({ activeAt: NOW + 20 })).toEqual(
          await store.silences.list({ activeAt: NOW + 20 }),
        );
        expect(await reader.silences.list({ activeAt: NOW + 40 })).toEqual([]);
        expect(await reader.silences.list()).toHaveLength(2);
      } finally {
        await reader.close();
      }
    });

    it('saves alert state and its notices once, and measures rules on the rollups', async () => {
      const notice = { id: 'n1', rule: 'spike', zone: 7, status: 'firing' as const, summary: 's' };
      const key = { rule: 'spike', zone: 7, source: 'origin', fingerprint: 'f' };
      const state = { state: 'firing' as const, since: NOW, lastNotifiedAt: NOW, firstEvaluatedAt: NOW - 5 };
      const measured = { value: 12.5, threshold: 10, detail: { window: '1h' } };
      expect(await store.alerts.save(key, undefined, state, measured, [{ hook: 'h', notice }], NOW)).toBe(
        true,
      );
      expect(await store.alerts.save(key, state, state, measured, [{ hook: 'h', notice }], NOW + 1)).toBe(
        true,
      );
      // A compare-and-set: saves from a state that is no longer the stored one change nothing.
      const stale = { ...state, state: 'pending' as const };
      const other = { id: 'n2', rule: 'spike', zone: 7, status: 'resolved' as const, summary: 's' };
      const resolved = { ...state, state: 'resolved' as const, since: NOW + 2 };
      expect(
        await store.alerts.save(key, stale, resolved, measured, [{ hook: 'h', notice: other }], NOW + 2),
      ).toBe(false);
      expect(
        await store.alerts.save(key, undefined, resolved, measured, [{ hook: 'h', notice: other }], NOW + 2),
      ).toBe(false);
      // A caller that does not track `notified`: a firing state was notified firing.
      expect(await store.alerts.getState('spike', 7)).toEqual({ ...state, notified: 'firing' });
      expect(await store.alerts.listStates()).toMatchObject([
        { rule: 'spike', zone_id: 7, last_value: 12.5, last_evaluated_at: NOW + 1, notified: 'firing' },
      ]);
      // Held by a silence: the state moves on, what receivers last heard is kept.
      const held = { ...state, lastNotifiedAt: NOW + 5, notified: null };
      expect(await store.alerts.save(key, state, held, measured, [], NOW + 5)).toBe(true);
      expect(await store.alerts.getState('spike', 7)).toEqual(held);
      expect(await store.alerts.save(key, held, state, measured, [], NOW + 6)).toBe(true);
      expect(await store.alerts.unqueued()).toEqual([{ id: 'n1', hook: 'h', notice }]);
      expect(await store.alerts.createdSince(NOW)).toEqual([{ id: 'n1', hook: 'h' }]);
      await store.alerts.markEnqueued('n1', 'h', NOW + 2);
      expect(await store.alerts.unqueued()).toEqual([]);
      // Not delivered yet: handed again when Redis may have lost its job, until given up.
      const cursor = { createdAt: NOW, id: 'n1', hook: 'h' };
      expect(await store.alerts.undelivered(2, 10)).toEqual([
        { id: 'n1', hook: 'h', notice, attempts: 0, cursor },
      ]);
      expect(await store.alerts.undelivered(2, 10, cursor)).toEqual([]);
      expect(await store.alerts.delivered('n1', 'h')).toBe(false);
      await store.alerts.markAttempt('n1', 'h', NOW + 3, 'HTTP 500');
      expect(await store.alerts.undelivered(2, 10)).toMatchObject([{ id: 'n1', attempts: 1 }]);
      expect(await store.alerts.undelivered(1, 10)).toEqual([]);
      await store.alerts.markAttempt('n1', 'h', NOW + 4, null);
      expect(await store.alerts.undelivered(100, 10)).toEqual([]);
      expect(await store.alerts.delivered('n1', 'h')).toBe(true);
      expect(await store.alerts.notifications()).toEqual([
        {
          id: 'n1',
          hook: 'h',
          rule: 'spike',
          zone_id: 7,
          status: 'firing',
          delivered_at: NOW + 4,
          attempts: 2,
          last_error: null,
        },
      ]);

      const day = freshKey('origin');
      await store.ledger.claim(day, 'w1', NOW, LEASE, true);
      const rows = originRows(200);
      await store.storePage(day, 'w1', originPage(rows), NOW, LEASE);
      await store.ledger.finish(day, 'w1', 'complete', DAY_START + 86_400_000, NOW + 9);
      const in5xx = rows.filter((r) => (r.statusCode ?? 0) >= 500 && (r.statusCode ?? 0) <= 599).length;
      const end = DAY_START + 86_400_000;
      expect(
        await store.alerts.count('origin', day.zone, DAY_START, end, {
          statusCodeMin: 500,
          statusCodeMax: 599,
        }),
      ).toBe(in5xx);
      expect(await store.alerts.count('origin', day.zone, DAY_START, end, { errorCode: 'dns_lookup' })).toBe(
        rows.filter((r) => r.errorCode === 'dns_lookup').length,
      );
      expect(await store.alerts.count('shield', day.zone, DAY_START, end, {})).toBe(0);
      expect(await store.alerts.coverage('origin', day.zone)).toEqual(new Map([[DAY, end]]));
      expect(await store.alerts.lastSuccess('origin', day.zone)).toBe(NOW + 9);
      expect(await store.alerts.lastSuccess('origin', 999_999)).toBeNull();
    });

    it('saves a series state and its notices once, compare-and-set as alert state', async () => {
      const notice = { id: 's1', rule: 'q', zone: 0, status: 'firing' as const, summary: 's' };
      const key = { rule: 'q', series: '{"zone":"a"}', fingerprint: 'f' };
      const state = { state: 'firing' as const, since: NOW, lastNotifiedAt: null, firstEvaluatedAt: NOW - 5 };
      const measured = { value: 3, detail: { rows: 1 } };
      expect(
        await store.alertSeries.save(key, undefined, state, measured, [{ hook: 'h', notice }], NOW),
      ).toBe(true);
      // The first save again (no row read) and a save from a state no longer stored change nothing.
      const other = { id: 's2', rule: 'q', zone: 0, status: 'resolved' as const, summary: 's' };
      const resolved = { ...state, state: 'resolved' as const, since: NOW + 2 };
      for (const from of [undefined, { ...state, lastNotifiedAt: NOW }, { ...state, since: NOW + 1 }])
        expect(
          await store.alertSeries.save(
            key,
            from,
            resolved,
            measured,
            [{ hook: 'h', notice: other }],
            NOW + 2,
          ),
        ).toBe(false);
      // From the stored state (a null last notice compares as equal): saved, its notice with it.
      const notified = { ...resolved, lastNotifiedAt: NOW + 3 };
      expect(
        await store.alertSeries.save(key, state, notified, { value: null, detail: null }, [], NOW + 3),
      ).toBe(true);
      expect(await store.alertSeries.save(key, notified, resolved, measured, [], NOW + 4)).toBe(true);
      // notified: as the state implies when the caller does not track it (resolved: none).
      expect(await store.alertSeries.states('q')).toEqual(
        new Map([[key.series, { ...resolved, notified: null }]]),
      );
      expect(await store.alertSeries.states('none')).toEqual(new Map());
      expect(await store.alertSeries.list()).toEqual([
        {
          rule: 'q',
          series: key.series,
          labels: key.series,
          state: 'resolved',
          since: NOW + 2,
          fingerprint: 'f',
          first_evaluated_at: NOW - 5,
          last_evaluated_at: NOW + 4,
          last_notified_at: null,
          last_value: 3,
          last_detail: '{"rows":1}',
          notified: null,
        },
      ]);
      expect(await store.alerts.createdSince(NOW)).toContainEqual({ id: 's1', hook: 'h' });
      expect(await store.alerts.createdSince(NOW)).not.toContainEqual({ id: 's2', hook: 'h' });
      const reader = await t.reader();
      try {
        expect(await reader.alertSeries.list()).toEqual(await store.alertSeries.list());
      } finally {
        await reader.close();
      }
      // A resolution held by a silence: receivers last heard `firing`, kept until it is told.
      const held = { ...resolved, notified: 'firing' as const };
      expect(await store.alertSeries.save(key, resolved, held, measured, [], NOW + 5)).toBe(true);
      expect((await store.alertSeries.states('q')).get(key.series)).toEqual(held);
    });

    it('keeps guardian snapshots, failed calls too', async () => {
      const metrics = {
        data: { totalBlockedRequests: 5, totalLoggedRequests: 7, totalRequestsInspected: 100.9 },
        error: null,
      } as unknown as ApiGuardianMetrics;
      const z = ++zone;
      const id1 = await store.guardian.add(z, new Date(NOW), metrics);
      const id2 = await store.guardian.add(z, new Date(NOW + HOUR), null, { errorKey: 'x' });
      expect(id2).toBeGreaterThan(id1);
      const list = await store.guardian.list(z);
      // A counter that is not a whole number is NULL in its column, and kept as sent in `counters`.
      expect(list).toMatchObject([
        { id: id1, total_blocked_requests: 5, total_requests_inspected: null, error: null },
        { id: id2, total_blocked_requests: null, error: '{"errorKey":"x"}', counters: null },
      ]);
      expect(JSON.parse(list[0]!.counters!)).toMatchObject({ totalRequestsInspected: 100.9 });
      expect(await store.guardian.list(z, new Date(NOW + 1).toISOString())).toHaveLength(1);
      const reading = { taken_at: new Date(NOW).toISOString(), value: 5 };
      // The newest snapshot with the counter (the failed one has none), and the newest until a time.
      expect(await store.alerts.latestSnapshot(z, 'total_blocked_requests')).toEqual(reading);
      expect(
        await store.alerts.latestSnapshot(z, 'total_blocked_requests', new Date(NOW).toISOString()),
      ).toEqual(reading);
      expect(
        await store.alerts.latestSnapshot(z, 'total_blocked_requests', new Date(NOW - 1).toISOString()),
      ).toBeUndefined();
      await expect(store.alerts.latestSnapshot(z, 'id; DROP TABLE x')).rejects.toThrow(
        /not a snapshot counter/,
      );
      const snaps = await store.reports.snapshot((r) =>
        r.guardianSnapshots({ zone: z, startMs: NOW, endMs: NOW + 2 * HOUR }),
      );
      expect(snaps.map((s) => s.id)).toEqual([id1, id2]);
    });

    it('reads reports from the rollups and the entries', async () => {
      const key = freshKey('origin');
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = originRows(300);
      await store.storePage(key, 'w1', originPage(rows), NOW, LEASE);
      const scope = { zone: key.zone, startMs: DAY_START, endMs: DAY_START + 86_400_000 };
      const report = await store.reports.snapshot(async (r) => ({
        zones: await r.zoneTotals('origin', scope),
        buckets: await r.buckets('origin', scope, 6 * HOUR),
        classes: await r.rollupTop('origin', scope, 'status_class', null),
        codes: await r.rollupTop('origin', scope, 'status_code', 2),
        urls: await r.rawTop('origin', [key.zone], scope, 'server_zone', 5),
        coverage: await r.coverage('origin', scope),
      }));
      // Not finished yet: the ledger covers nothing of the day.
      expect(report.coverage).toEqual(new Map());
      expect(await store.ledger.finish(key, 'w1', 'complete', DAY_START + 86_400_000, NOW + 1)).toBe(true);
      const covered = await store.reports.snapshot(async (r) => ({
        zone: await r.coverage('origin', scope),
        all: await r.coverage('origin', { ...scope, zone: null }),
        other: await r.coverage('shield', scope),
      }));
      expect(covered.zone).toEqual(new Map([[key.day, DAY_START + 86_400_000]]));
      // Over every zone: the furthest any zone's day is covered (other tests' zones share the day).
      expect(covered.all.get(key.day)).toBeGreaterThanOrEqual(DAY_START + 86_400_000);
      expect(covered.other).toEqual(new Map());
      expect(report.zones).toEqual([{ zone: key.zone, count: 300 }]);
      expect(report.buckets.reduce((s, b) => s + b.count, 0)).toBe(300);
      expect(report.buckets.map((b) => b.start)).toEqual([0, 1, 2, 3].map((q) => DAY_START + q * 6 * HOUR));
      const tally = (f: (r: OriginRow) => string | number | null) => {
        const m = new Map<string | number | null, number>();
        for (const r of rows) m.set(f(r), (m.get(f(r)) ?? 0) + 1);
        return m;
      };
      const classes = tally((r) => (r.statusCode === null ? null : `${Math.floor(r.statusCode / 100)}xx`));
      expect(new Map(report.classes.map((c) => [c.key, c.count]))).toEqual(classes);
      expect(report.codes).toHaveLength(2);
      // NULL first among equal counts, as SQLite orders them.
      const zones = tally((r) => r.serverZone);
      expect(report.urls).toEqual(
        [...zones]
          .map(([key, count]) => ({ key, count }))
          .sort((a, b) => b.count - a.count || (a.key === null ? -1 : 1)),
      );
    });

    it('prunes entries and rollup hours before a cutoff', async () => {
      const key = freshKey('shield');
      const day2 = { ...key, day: '2026-11-21' };
      await store.ledger.claim(key, 'w1', NOW, LEASE, true);
      await store.ledger.claim(day2, 'w1', NOW, LEASE, true);
      await store.storePage(key, 'w1', shieldPage(shieldRows(50), 1, null), NOW, LEASE);
      await store.storePage(
        day2,
        'w1',
        shieldPage(shieldRows(40, 0, DAY_START + 86_400_000), 1, null),
        NOW,
        LEASE,
      );
      const pruned = await store.prune(DAY_START + 86_400_000);
      expect(pruned.shield).toBeGreaterThanOrEqual(50); // other tests' rows of the day go too
      const where = `WHERE shield_zone_id = ${key.zone}`;
      expect(await count(store, `SELECT count(*) FROM shield_event_logs ${where}`)).toBe(40);
      expect(await count(store, `SELECT min(hour) FROM shield_hourly ${where}`)).toBe(DAY_START + 86_400_000);
      expect(await count(store, `SELECT sum(count) FROM shield_hourly ${where}`)).toBe(40);
      expect(
        await count(
          store,
          `SELECT count(*) FROM origin_error_logs WHERE timestamp < ${DAY_START + 86_400_000}`,
        ),
      ).toBe(0);
    });

    it('runs read-only queries and refuses writes', async () => {
      const rows = await store.queries.readOnly(
        "SELECT 9007199254740993 AS big, 1.5 AS f, NULL AS n, 'x' AS t",
        { timeoutMs: 5000 },
        async (c) => {
          const r = await c.next(10);
          return { columns: c.columns, rows: r, end: await c.next(10) };
        },
      );
      expect(rows).toEqual({
        columns: ['big', 'f', 'n', 't'],
        rows: [[9007199254740993n, 1.5, null, 'x']],
        end: [],
      });
      const refused = store.queries.readOnly('DELETE FROM ingest_ledger', { timeoutMs: 5000 }, (c) =>
        c.next(1),
      );
      await expect(refused).rejects.toBeInstanceOf(StoreQueryError);
      await expect(refused).rejects.toMatchObject({ kind: 'refused' });
      await expect(
        store.queries.readOnly('SELECT * FROM no_such_table', { timeoutMs: 5000 }, (c) => c.next(1)),
      ).rejects.toMatchObject({ kind: 'failed' });
      expect(await count(store, 'SELECT count(*) FROM ingest_ledger')).toBeGreaterThan(0);
    });
  });
}
