// What only the PostgreSQL store has: migrations recorded under a lock, day partitions made ahead and
// dropped by retention, read-only queries bounded by statement_timeout, and a URL whose password is
// never shown.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openPool } from '../../src/store/postgres/connection.js';
import type { ArchiveStore } from '../../src/store/store.js';
import { StoreQueryError } from '../../src/store/store-query-error.js';
import { DAY, DAY_START, NOW, count, select, shieldPage, shieldRows } from './conformance.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();
const DAY_MS = 86_400_000;
const LEASE = 60_000;

/** Polls `probe` until it gives a value (10 s at most). */
async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting');
}

/** The day partitions of a parent table, by name. */
async function partitions(store: ArchiveStore, parent: string): Promise<string[]> {
  const rows = await select(
    store,
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = '${parent}'::regclass ORDER BY 1`,
  );
  return rows.map((r) => r.name as string);
}

describe.skipIf(server === null)('PostgreSQL store', () => {
  let db: TestDatabase;
  let store: ArchiveStore;

  beforeAll(async () => {
    db = await createTestDatabase(server!);
    store = await openPostgresStore({ url: db.url, max: 4, now: () => NOW });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('records each migration once with its checksum; running them again changes nothing', async () => {
    const recorded = await select(store, 'SELECT id, name, checksum FROM schema_migrations ORDER BY id');
    expect(recorded.map((r) => r.name)).toEqual([
      '0001_archive.sql',
      '0002_rollup_views.sql',
      '0003_alerts.sql',
      '0004_values_that_fit.sql',
      '0005_history.sql',
      '0006_silences.sql',
      '0007_new_terms_and_sql_alerts.sql',
      '0008_sql_alert_silences.sql',
      '0009_write_batches.sql',
    ]);
    expect(recorded.every((r) => /^[0-9a-f]{64}$/.test(r.checksum as string))).toBe(true);
    const again = await store.migrate();
    expect(again.map((r) => r.status)).toEqual(recorded.map(() => 'already-applied'));
  });

  it('lets workers migrate a new database at the same time: each migration applied once', async () => {
    const fresh = await createTestDatabase(server!);
    const pools = [0, 1, 2].map(() => openPool({ url: fresh.url, max: 2 }, () => {}));
    try {
      const results = await Promise.all(pools.map((p) => migratePostgres(p)));
      const applied = results.flat().filter((r) => r.status === 'applied');
      expect(results.flat().filter((r) => r.status === 'failed')).toEqual([]);
      expect(applied.map((r) => r.id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const { rows } = await pools[0]!.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM schema_migrations',
      );
      expect(rows[0]!.n).toBe(9);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      await fresh.drop();
    }
  });

  it('makes the day partitions around now when it opens, and each day a page needs', async () => {
    const day = (offset: number) =>
      new Date(NOW + offset * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
    const ahead = [-1, 0, 1, 2, 3].map((d) => `shield_event_logs_${day(d)}`);
    expect(await partitions(store, 'shield_event_logs')).toEqual(
      expect.arrayContaining(['shield_event_logs_far', ...ahead]),
    );
    expect(await partitions(store, 'quarantined_entries')).toEqual(
      expect.arrayContaining([-1, 0, 1, 2, 3].map((d) => `quarantined_entries_${day(d)}`)),
    );
    // A page whose rows cross midnight, and one far in the future.
    const key = { source: 'shield' as const, zone: 1, day: DAY };
    await store.ledger.claim(key, 'w', NOW, LEASE, true);
    const rows = shieldRows(3, 0, DAY_START + DAY_MS - 1000);
    rows[2]!.timestamp = Date.UTC(10000, 0, 1, 12);
    await store.storePage(key, 'w', shieldPage(rows, 1, null, 1), NOW, LEASE);
    const where = `tableoid::regclass::text AS part FROM shield_event_logs WHERE shield_zone_id = 1 ORDER BY timestamp`;
    expect((await select(store, `SELECT ${where}`)).map((r) => r.part)).toEqual([
      'shield_event_logs_20261120',
      'shield_event_logs_20261121',
      'shield_event_logs_far',
    ]);
    expect(await count(store, `SELECT count(*) FROM quarantined_entries_20261120 WHERE zone_id = 1`)).toBe(1);
  });

  it('makes a partition while another session reads the table (a long report does not hold up writers)', async () => {
    const reader = new pg.Client({ connectionString: db.url });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM shield_event_logs');
      // The premise: the reader holds its lock on the table until it ends (after prepareAhead here).
      const { rows } = await reader.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE pid = pg_backend_pid() AND granted
         AND relation = 'shield_event_logs'::regclass AND mode = 'AccessShareLock'`,
      );
      expect(rows[0]!.n).toBe(1);
      // Resolving at all, while that lock is held, is the point: a partition made in a way that waits
      // for the readers would wait for this one, which ends only after, and fail at its lock_timeout.
      await store.prepareAhead(NOW + 20 * DAY_MS);
      const day = new Date(NOW + 23 * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
      expect(await partitions(store, 'shield_event_logs')).toContain(`shield_event_logs_${day}`);
    } finally {
      await reader.query('ROLLBACK');
      await reader.end();
    }
  });

  it('drops whole day partitions for retention, and makes one again for a day stored later', async () => {
    const key = { source: 'shield' as const, zone: 2, day: DAY };
    await store.ledger.claim(key, 'w', NOW, LEASE, true);
    await store.storePage(key, 'w', shieldPage(shieldRows(30), 1, null, 2), NOW, LEASE);
    const next = { ...key, day: '2026-11-21' };
    await store.ledger.claim(next, 'w', NOW, LEASE, true);
    await store.storePage(next, 'w', shieldPage(shieldRows(20, 0, DAY_START + DAY_MS), 1, null), NOW, LEASE);

    // Another worker applies retention while this one still knows the partition.
    const other = await openPostgresStore({ url: db.url, max: 2, now: () => NOW });
    try {
      const pruned = await other.prune(DAY_START + DAY_MS);
      expect(pruned.shield).toBeGreaterThanOrEqual(30);
      expect(pruned.quarantined).toBeGreaterThanOrEqual(2);
    } finally {
      await other.close();
    }
    expect(await partitions(store, 'shield_event_logs')).not.toContain('shield_event_logs_20261120');
    expect(await partitions(store, 'quarantined_entries')).not.toContain('quarantined_entries_20261120');
    expect(await partitions(store, 'shield_event_logs')).toContain('shield_event_logs_20261121');
    expect(await count(store, 'SELECT count(*) FROM shield_event_logs WHERE shield_zone_id = 2')).toBe(20);

    // The day is fetched again: its partition is made again, though this store had it cached.
    await store.ledger.claim(key, 'w', NOW + 1, LEASE, false);
    const again = await store.storePage(key, 'w', shieldPage(shieldRows(30), 1, null), NOW + 1, LEASE);
    expect(again).toMatchObject({ kind: 'stored', inserted: 30 });
    expect(await partitions(store, 'shield_event_logs')).toContain('shield_event_logs_20261120');
  });

  // Entries holding U+0000 never reach a store (ingestion quarantines them on both: value-rules.test.ts);
  // an error text quoting such a body may.
  it('keeps an error text holding U+0000 with the character escaped', async () => {
    const key = { source: 'shield' as const, zone: 3, day: DAY };
    await store.ledger.claim(key, 'w', NOW, LEASE, true);
    await store.ledger.stop(key, 'w', 'failed', 'HTTP 500: nul \u0000 body', NOW + 1);
    expect((await store.ledger.get(key))!.last_error).toBe('HTTP 500: nul \\u0000 body');
  });

  it('keeps nothing of a page whose connection dies before it commits; the day resumes from its checkpoint', async () => {
    const key = { source: 'shield' as const, zone: 4, day: DAY };
    await store.ledger.claim(key, 'w', NOW, LEASE, true);
    await store.storePage(key, 'w', shieldPage(shieldRows(10), 1, 't2'), NOW, LEASE);
    const checkpoint = (await store.ledger.get(key))!;

    // Another session holds the ledger row, so the next page waits on it after its rows are in.
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM ingest_ledger WHERE zone_id = 4 FOR UPDATE`);
      // Its failure is caught as it happens: it may come while the terminate below is still awaited.
      const page = store.storePage(key, 'w', shieldPage(shieldRows(20, 10), 2, 't3', 1), NOW + 1, LEASE).then(
        () => undefined,
        (err: unknown) => err,
      );
      const waiting = await waitFor(async () => {
        const { rows } = await blocker.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'edgelog'
           AND datname = current_database()`,
        );
        return rows[0]?.pid;
      });
      // The worker's connection dies mid-transaction (its process killed, its host gone).
      await blocker.query('SELECT pg_terminate_backend($1)', [waiting]);
      await new Promise((r) => setTimeout(r, 300));
      expect(await page).toMatchObject({ failure: 'unreachable', retryable: true });
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end();
    }
    expect(await count(store, 'SELECT count(*) FROM shield_event_logs WHERE shield_zone_id = 4')).toBe(10);
    expect(await count(store, 'SELECT sum(count) FROM shield_hourly WHERE shield_zone_id = 4')).toBe(10);
    expect(await count(store, 'SELECT count(*) FROM quarantined_entries WHERE zone_id = 4')).toBe(0);
    expect(await store.ledger.get(key)).toEqual(checkpoint);
    // Another worker, once the lease ran out, continues from page 2.
    const resumed = await store.ledger.claim(key, 'w2', NOW + LEASE + 1, LEASE, true);
    expect(resumed).toMatchObject({ kind: 'claimed', resumed: true, row: { next_token: 't2', pages: 1 } });
    const stored = await store.storePage(
      key,
      'w2',
      shieldPage(shieldRows(20, 10), 2, 't3', 1),
      NOW + LEASE + 2,
      LEASE,
    );
    expect(stored).toMatchObject({ kind: 'stored', inserted: 20, quarantineInserted: 1 });
  });

  it('runs a query in a read-only transaction: a write refused, a second statement refused', async () => {
    const pool = openPool({ url: db.url, max: 1 }, () => {});
    try {
      await pool.query(`CREATE FUNCTION edgelog_test_write() RETURNS bigint LANGUAGE sql AS
        $$ INSERT INTO alert_state VALUES ('r', 1, 'origin', 'firing', 0, 'f', 0, 0, NULL, NULL, NULL, NULL) RETURNING 1::bigint $$`);
    } finally {
      await pool.end();
    }
    const write = store.queries.readOnly('SELECT edgelog_test_write()', { timeoutMs: 5000 }, (c) =>
      c.next(1),
    );
    await expect(write).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('read-only') as string,
    });
    const two = store.queries.readOnly(
      'SELECT 1; COMMIT; DROP TABLE ingest_ledger',
      { timeoutMs: 5000 },
      (c) => c.next(1),
    );
    await expect(two).rejects.toBeInstanceOf(StoreQueryError);
    expect(await count(store, 'SELECT count(*) FROM alert_state')).toBe(0);
    expect(await count(store, "SELECT count(*) FROM pg_tables WHERE tablename = 'ingest_ledger'")).toBe(1);
    // Leading comments and a trailing semicolon are fine; views answer as on SQLite.
    const rows = await select(store, '-- hourly\nSELECT count(*) AS n FROM origin_errors_hourly;');
    expect(rows).toEqual([{ n: 0 }]);
    // A timestamp range reads its day's partition only.
    const day = DAY_START + DAY_MS;
    const plan = await select(
      store,
      `EXPLAIN SELECT count(*) FROM shield_event_logs WHERE timestamp >= ${day} AND timestamp < ${day + DAY_MS}`,
    );
    const text = plan.map((r) => String(r['QUERY PLAN'])).join('\n');
    expect(text).toContain('shield_event_logs_20261121');
    expect(text).not.toContain('shield_event_logs_20261120');
    const analyze = store.queries.readOnly(
      'EXPLAIN ANALYZE SELECT edgelog_test_write()',
      { timeoutMs: 5000 },
      (c) => c.next(1),
    );
    await expect(analyze).rejects.toMatchObject({ kind: 'refused' });
  });

  it('stops a slow query at the statement timeout', async () => {
    // Longer than the test may take: only the server's statement timeout ends it in time.
    const slow = store.queries.readOnly('SELECT pg_sleep(600)', { timeoutMs: 200 }, (c) => c.next(1));
    await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
    // The server stopped it, not only the client that gave up on it: no backend of this database sleeps.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await waitFor(async () => {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event = 'PgSleep'`,
        );
        return rows[0]!.n === 0 ? true : undefined;
      });
    } finally {
      await admin.end();
    }
  });

  it('never shows the password of the URL', async () => {
    const url = 'postgres://postgres:s3cret-pw@127.0.0.1:1/nowhere';
    const failed = openPostgresStore({ url, connectionTimeoutMs: 1000 });
    await expect(failed).rejects.toThrow(/127\.0\.0\.1:1/);
    await failed.catch((err: Error) => {
      expect(err.message).not.toContain('s3cret-pw');
      expect(String(err.stack)).not.toContain('s3cret-pw');
    });
    const u = new URL(db.url);
    u.password = 'ignored-by-trust';
    const withPassword = await openPostgresStore({ url: u.href, max: 1, now: () => NOW });
    try {
      expect(withPassword.location).not.toContain('ignored-by-trust');
      expect(withPassword.location).toContain(db.name);
    } finally {
      await withPassword.close();
    }
  });

  it('gives queries exact integers, and numerics as numbers when a double holds them', async () => {
    const row = await store.queries.readOnly(
      'SELECT 9007199254740993::bigint, 2.50::numeric, 12345678901234567.5::numeric, true',
      { timeoutMs: null },
      (cur) => cur.next(1),
    );
    expect(row).toEqual([[9007199254740993n, 2.5, '12345678901234567.5', 1n]]);
  });
});
