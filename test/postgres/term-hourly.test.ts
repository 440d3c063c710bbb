// term_hourly on both stores: counted in the page's transaction exactly once per new row (a page
// stored again, a page partly archived: PostgreSQL's merge path), keyed as src/store/terms.ts keys
// values (hostile and long URLs included), and filled by the migration's backfill from archived rows
// to exactly what the writers counted.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MERGE_PENDING_AT, mergePendingTerms, registerTermFunctions } from '../../src/store/sqlite/terms.js';
import type { ArchiveStore, OriginRow, ShieldRow } from '../../src/store/store.js';
import { PLAIN_TERM_FIELDS, TermCounter } from '../../src/store/terms.js';
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
  /** The counts as one table: SQLite's term_hourly and term_pending summed, PostgreSQL's term_hourly. */
  termsSql: string;
  /** Empties term_hourly and runs the migration's backfill on a connection of the test's own. */
  backfill(): Promise<void>;
  cleanup(): Promise<void>;
}

const migration = (dialect: string, file: string, from: string) => {
  const sql = readFileSync(join(import.meta.dirname, `../../migrations/${dialect}/${file}`), 'utf8');
  return sql.slice(sql.indexOf(from), sql.indexOf('CREATE TABLE alert_series_state'));
};

function sqlite(): Promise<Under> {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-terms-'));
  const path = join(dir, 'a.db');
  const store = openSqliteStore(path);
  return Promise.resolve({
    store,
    termsSql: `SELECT source, zone_id, field, value, hour, sum(count) AS count FROM (
        SELECT * FROM term_hourly UNION ALL SELECT source, zone_id, field, value, hour, count FROM term_pending)
      GROUP BY source, zone_id, field, value, hour`,
    backfill() {
      const db = new Database(path);
      try {
        registerTermFunctions(db);
        db.exec('DELETE FROM term_hourly');
        db.exec('DELETE FROM term_pending');
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

/** The term counts (Under.termsSql) as sorted text lines. */
async function terms({ store, termsSql }: Under): Promise<string[]> {
  const rows = await select(store, termsSql);
  return rows.map((r) => JSON.stringify([r.source, r.zone_id, r.field, r.value, r.hour, r.count])).sort();
}

/** What term_hourly must hold for these distinct rows, counted by the pure TermCounter. */
function expected(zone: number, originRows: OriginRow[], shieldRows: ShieldRow[]): string[] {
  const lines: string[] = [];
  const o = new TermCounter();
  for (const r of originRows)
    o.add(
      {
        timestamp: r.timestamp,
        url: r.requestUrl,
        fields: { error_code: r.errorCode, status_code: r.statusCode },
      },
      PLAIN_TERM_FIELDS.origin,
    );
  for (const t of o.entries())
    lines.push(JSON.stringify(['origin', zone, t.field, t.value, t.hour, t.count]));
  const s = new TermCounter();
  for (const r of shieldRows)
    s.add(
      {
        timestamp: r.timestamp,
        url: r.url,
        fields: { country: r.country, asn: r.asn, rule_id: r.ruleId, severity: r.severity, method: r.method },
      },
      PLAIN_TERM_FIELDS.shield,
    );
  for (const t of s.entries())
    lines.push(JSON.stringify(['shield', zone, t.field, t.value, t.hour, t.count]));
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

describe("term_pending (SQLite's counts not yet merged into term_hourly)", () => {
  const count = async (table: string) =>
    (await select(under!.store, `SELECT count(*) AS n FROM ${table}`))[0]!.n as number;

  it('the page that takes it to MERGE_PENDING_AT rows merges it: the counts stay exact', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'origin' as const, zone: 3, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    // Three new path prefixes a row, so a page of 1,000 appends over 3,000 rows.
    const rows = originRows(8_000, 0).map((r, k) => ({ ...r, requestUrl: `/a${k}/b${k}/c${k}` }));
    let page = 0;
    let before = 0;
    while (page < 8 && (await count('term_hourly')) === 0) {
      before = await count('term_pending');
      await store.storePage(key, 'w1', originPage(rows.slice(page * 1000, ++page * 1000)), NOW, LEASE);
    }
    expect(before).toBeLessThan(MERGE_PENDING_AT); // no page before merged
    expect(before).toBeGreaterThan(MERGE_PENDING_AT - 4_000); // the last one took it past the bound
    expect(await count('term_pending')).toBe(0);
    expect(await terms(under)).toEqual(expected(3, rows.slice(0, page * 1000), []));
  });

  it('a judgement sums both tables: a value counted in either is seen, in the window and the lookback', async () => {
    under = await sqlite();
    const { store } = under;
    const path = store.location;
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
            timestamp: DAY_START + hour * H + i,
            country,
          })),
          i,
          't',
        ),
        NOW,
        LEASE,
      );
    const merge = () => {
      const db = new Database(path);
      try {
        db.transaction(() => mergePendingTerms(db)).immediate();
      } finally {
        db.close();
      }
    };
    await page([
      [2, 'DE'],
      [3, 'US'],
      [10, 'JP'],
    ]);
    merge(); // in term_hourly: DE and US in the lookback, JP once in the window
    await page([[5, 'FR']]); // in term_pending, in the lookback
    await page([
      ...[10, 10, 10].map((h): [number, string] => [h, 'FR']),
      [10, 'NZ'],
      [10, 'NZ'],
      [10, 'DE'],
      [10, 'US'],
      [10, 'JP'],
    ]);
    expect(await count('term_pending')).toBeGreaterThan(0);
    const q = {
      source: 'shield' as const,
      zone: 9,
      field: 'country',
      from: DAY_START + 10 * H,
      to: DAY_START + 11 * H,
      lookbackFrom: DAY_START,
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
    merge();
    expect(await count('term_pending')).toBe(0);
    expect(await store.terms.newTerms(q)).toEqual(answer);
  });

  it('retention prunes the hours before its bound from both tables', async () => {
    under = await sqlite();
    const { store } = under;
    const key = { source: 'origin' as const, zone: 4, day: DAY };
    await store.ledger.claim(key, 'w1', NOW, LEASE, true);
    const rows = originRows(200, 0);
    await store.storePage(key, 'w1', originPage(rows.slice(0, 100)), NOW, LEASE);
    const db = new Database(store.location);
    db.transaction(() => mergePendingTerms(db)).immediate();
    db.close();
    await store.storePage(key, 'w1', originPage(rows.slice(100)), NOW, LEASE);
    const bound = DAY_START + 12 * H;
    await store.prune(bound);
    const kept = rows.filter((r) => r.timestamp >= bound);
    expect(await terms(under)).toEqual(expected(4, kept, []));
  });
});
