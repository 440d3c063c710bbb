// term_hourly on both stores: exactly once per new row (a page stored again, a page partly archived:
// PostgreSQL's merge path; on SQLite, counted from the entries past a watermark, through memory or the
// table), keyed as src/store/terms.ts keys values (hostile and long URLs included), and filled by the
// migration's backfill from archived rows to exactly what the writers counted.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { migrate, MIGRATIONS_DIR } from '../../src/store/sqlite/migrate.js';
import { MERGE_AT, TermsRepository } from '../../src/store/sqlite/terms.js';
import type { ArchiveStore, OriginRow, ShieldRow } from '../../src/store/store.js';
import type { DayKey } from '../../src/store/ledger-types.js';
import { batchTermColumns, PLAIN_TERM_FIELDS, TermCounter } from '../../src/store/terms.js';
import { originBatch, shieldBatch } from '../../src/store/rows.js';
import {
  DAY,
  DAY_START,
  NOW,
  originPage,
  originRows,
  select,
  shieldPage,
  shieldRows,
} from './conformance.js';
import { createTestDatabase, testServer } from './support/server.js';

const server = await testServer();
const LEASE = 60_000;
const H = 3_600_000;

const HOSTILE_URLS = [
  `https://cdn.example/${'ü'.repeat(150)}/b/c?x=1`, // over 256 bytes: a shortened key
  `/${'x'.repeat(199)}€${'y'.repeat(100)}`, // its key keeps exactly 200 bytes, and not the €
  'https://cdn.example', // no path: "/"
  '//a//b///c#frag/d',
  '/wp-admin/\u001b[2J/x?y=/z',
  'relative/path',
  null,
  '',
];

function origin(n: number, from: number): OriginRow[] {
  return originRows(n, from).map((r, k) => ({
    ...r,
    requestUrl: HOSTILE_URLS[(from + k) % HOSTILE_URLS.length]!,
  }));
}
function shield(n: number, from: number): ShieldRow[] {
  return shieldRows(n, from).map((r, k) => ({
    ...r,
    url: HOSTILE_URLS[(from + k) % HOSTILE_URLS.length]!,
    method: (from + k) % 4 === 0 ? null : ['GET', 'POST', ''][(from + k) % 3]!,
  }));
}

interface Under {
  store: ArchiveStore;
  /** The counts: term_hourly (on SQLite once every entry is merged, by another connection: settle()). */
  termsSql: string;
  settle: () => void;
  /** Empties term_hourly and runs the migration's backfill on a connection of the test's own. */
  backfill(): Promise<void>;
  cleanup(): Promise<void>;
}

const migration = (dialect: string, file: string, from: string) => {
  const sql = readFileSync(join(import.meta.dirname, `../../migrations/${dialect}/${file}`), 'utf8');
  return sql.slice(sql.indexOf(from), sql.indexOf('CREATE TABLE alert_series_state'));
};

/** Merges every entry above the watermarks into term_hourly from a connection of its own (as another process). */
function mergeFromTable(path: string): void {
  const db = openDatabase(path);
  try {
    for (const source of ['origin', 'shield'] as const) new TermsRepository(db, source).merge();
  } finally {
    db.close();
  }
}

function sqlite(): Promise<Under> {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-terms-'));
  const path = join(dir, 'a.db');
  const store = openSqliteStore(path);
  return Promise.resolve({
    store,
    termsSql: 'SELECT source, zone_id, field, value, hour, count FROM term_hourly',
    settle: () => mergeFromTable(path),
    backfill() {
      const db = openDatabase(path);
      try {
        db.exec('DELETE FROM term_hourly');
        db.exec(migration('sqlite', '0008_new_terms_and_sql_alerts.sql', 'INSERT INTO term_hourly'));
      } finally {
        db.close();
      }
      return Promise.resolve();
    },
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

async function postgres(): Promise<Under> {
  const db = await createTestDatabase(server!);
  const store = await openPostgresStore({ url: db.url, max: 4, now: () => NOW });
  return {
    store,
    termsSql: 'SELECT source, zone_id, field, value, hour, count FROM term_hourly',
    settle: () => {},
    async backfill() {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query('DELETE FROM term_hourly');
        await client.query(
          migration(
            'postgres',
            '0007_new_terms_and_sql_alerts.sql',
            'CREATE FUNCTION pg_temp.edgelog_rollup_key',
          ),
        );
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      await store.close();
      await db.drop();
    },
  };
}

/** The term counts (Under.termsSql) as sorted text lines, every entry merged first unless `settle` is false. */
async function terms({ store, termsSql, settle }: Under, merged = true): Promise<string[]> {
  if (merged) settle();
  const rows = await select(store, termsSql);
  return rows.map((r) => JSON.stringify([r.source, r.zone_id, r.field, r.value, r.hour, r.count])).sort();
}

/** What term_hourly must hold for these distinct rows, counted by the pure TermCounter. */
function expected(zone: number, originRows: OriginRow[], shieldRows: ShieldRow[]): string[] {
  const lines: string[] = [];
  for (const [source, batch] of [
    ['origin', originBatch(originRows)],
    ['shield', shieldBatch(shieldRows)],
  ] as const) {
    const counter = new TermCounter();
    counter.add(batchTermColumns(source, batch), PLAIN_TERM_FIELDS[source]);
    for (const t of counter.entries())
      lines.push(JSON.stringify([source, zone, t.field, t.value, t.hour, t.count]));
  }
  return lines.sort();
}

let under: Under | undefined;
afterEach(async () => {
  await under?.cleanup();
  under = undefined;
});

const stores: Array<[string, () => Promise<Under>]> = [['SQLite', sqlite]];
if (server !== null) stores.push(['PostgreSQL', postgres]);

describe.each(stores)('term_hourly on %s', (_name, open) => {
  it('counts each new row once, through repeated and partly archived pages; the backfill agrees', async () => {
    under = await open();
    const { store } = under;
    const okey = { source: 'origin' as const, zone: 7, day: DAY };
    const skey = { source: 'shield' as const, zone: 7, day: DAY };
    await store.ledger.claim(okey, 'w1', NOW, LEASE, true);
    await store.ledger.claim(skey, 'w1', NOW, LEASE, true);
    const o = origin(300, 0);
    const s = shield(300, 0);
    await store.storePage(okey, 'w1', originPage(o.slice(0, 150)), NOW, LEASE);
    await store.storePage(okey, 'w1', originPage(o.slice(0, 150)), NOW, LEASE); // all archived already
    await store.storePage(okey, 'w1', originPage(o.slice(100, 300)), NOW, LEASE); // half archived
    await store.storePage(skey, 'w1', shieldPage(s.slice(0, 200), 1, 't2'), NOW, LEASE);
    await store.storePage(skey, 'w1', shieldPage(s.slice(150, 300), 2, null), NOW, LEASE);

    const kept = await terms(under);
    expect(kept).toEqual(expected(7, o, s));
    expect(kept.some((l) => l.includes('…'))).toBe(true); // the long URL's shortened key
    expect(kept.some((l) => l.startsWith('["origin",7,"path:1","/",'))).toBe(true); // a URL with no path

    await under.backfill();
    expect(await terms(under)).toEqual(kept);
  });

  it('answers which values of a window are new against its lookback, most frequent first', async () => {
    under = await open();
    const { store } = under;
    const key = { source: 'shield' as const, zone: 9, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const row = (i: number, hour: number, country: string): ShieldRow => ({
      ...shieldRows(1, i)[0]!,
      logId: `n-${i}`,
      timestamp: DAY_START + hour * H + i,
      country,
    });
    const rows = [
      row(1, 2, 'DE'),
      row(2, 3, 'US'),
      ...[10, 11, 12].map((i) => row(i, 10, 'FR')),
      ...[20, 21].map((i) => row(i, 10, 'NZ')),
      row(30, 10, 'DE'),
      row(31, 10, 'JP'),
    ];
    await store.storePage(key, 'w1', shieldPage(rows, 1, null), NOW, LEASE);
    const q = {
      source: 'shield' as const,
      zone: 9,
      field: 'country',
      from: DAY_START + 10 * H,
      to: DAY_START + 11 * H,
    };
    expect(await store.terms.newTerms({ ...q, lookbackFrom: DAY_START, min: 1, limit: 10 })).toEqual({
      total: 3,
      values: [
        { value: 'FR', count: 3 },
        { value: 'NZ', count: 2 },
        { value: 'JP', count: 1 },
      ],
    });
    expect(await store.terms.newTerms({ ...q, lookbackFrom: DAY_START, min: 2, limit: 1 })).toEqual({
      total: 2,
      values: [{ value: 'FR', count: 3 }],
    });
    // DE was seen at 02:00: new only to a lookback that starts after it.
    expect(
      (await store.terms.newTerms({ ...q, lookbackFrom: DAY_START + 3 * H, min: 1, limit: 10 })).values.map(
        (v) => v.value,
      ),
    ).toEqual(['FR', 'NZ', 'DE', 'JP']);
  });
});

describe('SQLite: term counts derived from the entries past a watermark', () => {
  const one = async (sql: string) => (await select(under!.store, sql))[0]!;
  const mark = async (source: string) =>
    (await one(`SELECT merged_through AS m FROM term_watermark WHERE source = '${source}'`)).m as number;
  /** Stores `rows` from page `p` on, 1,000 a page, until the origin watermark moves; returns the pages. */
  const untilMerged = async (store: ArchiveStore, key: DayKey, rows: OriginRow[], p: number) => {
    while ((await mark('origin')) === 0)
      await store.storePage(key, 'w1', originPage(rows.slice(p * 1000, ++p * 1000)), NOW, LEASE);
    return p;
  };
  const hourlyRows = async () => (await one('SELECT count(*) AS n FROM term_hourly')).n as number;
  const H0 = DAY_START;
  // Three new path prefixes a row: a page of 1,000 makes over 3,000 keys.
  const distinct = (n: number, from: number) =>
    originRows(n, from).map((r, k) => ({ ...r, requestUrl: `/a${from + k}/b/c${(from + k) % 5}` }));

  it('the page that takes the unmerged entries to MERGE_AT writes their counts from memory, exactly', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'origin' as const, zone: 3, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = distinct(MERGE_AT + 1_000, 0);
    const stored: OriginRow[] = [];
    let page = 0;
    while ((await mark('origin')) === 0) {
      const slice = rows.slice(page * 1000, (page + 1) * 1000);
      await store.storePage(key, 'w1', originPage(slice), NOW, LEASE);
      if (page % 4 === 1) {
        // A page fetched again (all archived) and one half archived: no row counted twice.
        await store.storePage(key, 'w1', originPage(slice), NOW, LEASE);
        await store.storePage(
          key,
          'w1',
          originPage(rows.slice(page * 1000 + 500, (page + 2) * 1000)),
          NOW,
          LEASE,
        );
        stored.push(...rows.slice(page * 1000, (page + 2) * 1000));
        page += 2;
      } else {
        stored.push(...slice);
        page++;
      }
      expect(page).toBeLessThan(20);
    }
    expect(await mark('origin')).toBe(stored.length); // merged through the last page's row, at once
    expect(stored.length).toBeGreaterThanOrEqual(MERGE_AT);
    expect(stored.length - MERGE_AT).toBeLessThan(2_000);
    // Read before settle(): all of it was written by the writer's merge.
    expect(await terms(under, false)).toEqual(expected(3, stored, []));
  });

  it('entries a process stored and never merged (it died) are counted from the table by the next', async () => {
    under = await sqlite();
    const path = under.store.location;
    const key = { source: 'origin' as const, zone: 5, day: DAY };
    const first = openSqliteStore(path);
    await first.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = distinct(MERGE_AT + 3_000, 0);
    for (let p = 0; p < 3; p++)
      await first.storePage(key, 'w1', originPage(rows.slice(p * 1000, (p + 1) * 1000)), NOW, LEASE);
    expect(await mark('origin')).toBe(0);
    await first.close(); // as a crash: nothing is flushed at close
    // The next process: its memory starts with no claim on the 3,000 rows before it.
    const p = await untilMerged(under.store, key, rows, 3);
    expect(await terms(under, false)).toEqual(expected(5, rows.slice(0, p * 1000), []));
  });

  it('a page whose transaction rolled back (lease lost) is not counted', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'origin' as const, zone: 6, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = distinct(MERGE_AT + 2_000, 0);
    await store.storePage(key, 'w1', originPage(rows.slice(0, 1000)), NOW, LEASE);
    expect((await store.storePage(key, 'w2', originPage(rows.slice(1000, 2000)), NOW, LEASE)).kind).toBe(
      'lease-lost',
    );
    const p = await untilMerged(store, key, rows, 1);
    expect(await terms(under, false)).toEqual(expected(6, rows.slice(0, p * 1000), []));
  });

  it('a judgement counts the entries above the watermark live, in the window and the lookback', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'shield' as const, zone: 9, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    let i = 0;
    const page = (rows: Array<[number, string]>) =>
      store.storePage(
        key,
        'w1',
        shieldPage(
          rows.map(([hour, country]) => ({
            ...shieldRows(1, ++i)[0]!,
            logId: `m-${i}`,
            timestamp: H0 + hour * H + i,
            country,
          })),
          i,
          't',
        ),
        NOW,
        LEASE,
      );
    await page([
      [2, 'DE'],
      [3, 'US'],
      [10, 'JP'],
    ]);
    under.settle(); // in term_hourly: DE and US in the lookback, JP once in the window
    await page([[5, 'FR']]); // above the watermark, in the lookback
    await page([
      ...[10, 10, 10].map((h): [number, string] => [h, 'FR']),
      [10, 'NZ'],
      [10, 'NZ'],
      [10, 'DE'],
      [10, 'US'],
      [10, 'JP'],
    ]);
    expect(await mark('shield')).toBe(3);
    const q = {
      source: 'shield' as const,
      zone: 9,
      field: 'country',
      from: H0 + 10 * H,
      to: H0 + 11 * H,
      lookbackFrom: H0,
      min: 1,
      limit: 10,
    };
    const answer = {
      total: 2,
      values: [
        { value: 'JP', count: 2 },
        { value: 'NZ', count: 2 },
      ],
    };
    expect(await store.terms.newTerms(q)).toEqual(answer);
    under.settle();
    expect(await mark('shield')).toBe(i);
    expect(await store.terms.newTerms(q)).toEqual(answer);
  });

  it('retention merges first: an hour its bound cuts keeps the counts of the entries pruned', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'origin' as const, zone: 4, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = originRows(200, 0);
    await store.storePage(key, 'w1', originPage(rows.slice(0, 100)), NOW, LEASE);
    under.settle();
    await store.storePage(key, 'w1', originPage(rows.slice(100)), NOW, LEASE); // not merged
    const bound = H0 + 12 * H + 30 * 60_000;
    await store.prune(bound);
    const hour = H0 + 12 * H;
    expect(rows.some((r) => r.timestamp >= hour && r.timestamp < bound)).toBe(true);
    expect(await terms(under)).toEqual(
      expected(
        4,
        rows.filter((r) => r.timestamp >= hour),
        [],
      ),
    );
  });

  it('history pruning merges first, and the watermark comes down with the ids: new rows are counted', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'shield' as const, zone: 8, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = shieldRows(60, 0);
    await store.storePage(key, 'w1', shieldPage(rows.slice(0, 40), 1, 't'), NOW, LEASE);
    under.settle();
    await store.storePage(key, 'w1', shieldPage(rows.slice(40, 50), 2, 't'), NOW, LEASE); // not merged
    // The day's last rows leave the store (as compaction prunes them): the largest ids go.
    const gone = rows.slice(30, 50);
    await store.history.deleteEntries(key, {
      timestamp: gone.map((r) => r.timestamp),
      logId: gone.map((r) => r.logId),
    });
    expect(await mark('shield')).toBe(30);
    expect(await hourlyRows()).toBeGreaterThan(0);
    // New rows take the ids the deleted ones had: above the watermark, so they are counted.
    await store.storePage(key, 'w1', shieldPage(rows.slice(50), 3, null), NOW, LEASE);
    expect(await terms(under)).toEqual(expected(8, [], rows));
  });

  it("two writers' pages interleave: each one's memory vouches only for its own run of ids", async () => {
    under = await sqlite();
    const other = openSqliteStore(under.store.location);
    try {
      const a = { source: 'origin' as const, zone: 1, day: DAY };
      const b = { source: 'origin' as const, zone: 2, day: DAY };
      await under.store.ledger.claim(a, 'w1', NOW, LEASE, true);
      await other.ledger.claim(b, 'w2', NOW, LEASE, true);
      const rowsA = distinct(MERGE_AT, 0);
      const rowsB = distinct(MERGE_AT, 100_000);
      let p = 0;
      while ((await mark('origin')) === 0) {
        await under.store.storePage(a, 'w1', originPage(rowsA.slice(p * 1000, (p + 1) * 1000)), NOW, LEASE);
        await other.storePage(b, 'w2', originPage(rowsB.slice(p * 1000, ++p * 1000)), NOW, LEASE);
      }
      const all = [
        ...expected(1, rowsA.slice(0, p * 1000), []),
        ...expected(2, rowsB.slice(0, p * 1000), []),
      ];
      expect(await terms(under)).toEqual(all.sort());
    } finally {
      await other.close();
    }
  });

  it('memory is dropped when another process moved the watermark, even back to where it was', async () => {
    under = await sqlite();
    const other = openSqliteStore(under.store.location);
    try {
      const key = { source: 'shield' as const, zone: 8, day: DAY };
      await under.store.ledger.claim(key, 'w1', NOW, LEASE, true);
      const rows = shieldRows(30, 0);
      const old = rows.slice(0, 10);
      await under.store.storePage(key, 'w1', shieldPage(old, 1, 't'), NOW, LEASE); // in its memory
      // The other process prunes those rows (merging them first) and brings the watermark back to 0.
      await other.history.deleteEntries(key, {
        timestamp: old.map((r) => r.timestamp),
        logId: old.map((r) => r.logId),
      });
      expect(await mark('shield')).toBe(0);
      await under.store.ledger.claim(key, 'w2', NOW + 2 * LEASE, LEASE, true);
      await other.storePage(key, 'w2', shieldPage(rows.slice(10, 20), 2, 't'), NOW + 2 * LEASE, LEASE); // ids 1-10 again
      await under.store.ledger.claim(key, 'w1', NOW + 4 * LEASE, LEASE, true);
      await under.store.storePage(key, 'w1', shieldPage(rows.slice(20), 3, null), NOW + 4 * LEASE, LEASE);
      await under.store.prune(DAY_START); // deletes nothing, merges first: through its memory if it trusted it
      expect(await mark('shield')).toBe(20);
      expect(await terms(under)).toEqual(expected(8, [], rows));
    } finally {
      await other.close();
    }
  });

  it('migration 0011 keeps the counts term_pending held and starts the watermarks at the last ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-terms-migrate-'));
    const old = join(dir, 'migrations');
    mkdirSync(old);
    for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => f < '0011'))
      copyFileSync(join(MIGRATIONS_DIR, f), join(old, f));
    const db = openDatabase(join(dir, 'a.db'));
    try {
      expect(migrate(db, old).every((r) => r.status === 'applied')).toBe(true);
      db.exec(`INSERT INTO term_hourly VALUES ('shield', 1, 'country', 'DE', 0, 2);
        INSERT INTO term_pending VALUES ('shield', 1, 'country', 'DE', 0, 3), ('shield', 1, 'country', 'FR', 0, 1);
        INSERT INTO origin_error_logs (id, pull_zone_id, log_id, log_date, timestamp, log)
          VALUES (41, 1, 'a', '${DAY}', 0, '{}');`);
      expect(
        migrate(db)
          .filter((r) => r.status === 'applied')
          .map((r) => r.name),
      ).toEqual(['0011_terms_from_entries.sql', '0012_write_batches.sql']);
      expect(db.prepare('SELECT field, value, count FROM term_hourly ORDER BY value').raw().all()).toEqual([
        ['country', 'DE', 5],
        ['country', 'FR', 1],
      ]);
      expect(
        db.prepare('SELECT source, merged_through FROM term_watermark ORDER BY source').raw().all(),
      ).toEqual([
        ['origin', 41],
        ['shield', 0],
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
