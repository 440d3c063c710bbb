// A session that holds edgelog's partition lock (any role may take an advisory lock: a reader typing
// pg_advisory_lock by hand, a stuck tool) must not stall every worker that needs a new day partition:
// making or dropping partitions waits a bounded time for the lock, then fails with a retryable error
// that says what holds it up, and succeeds once the lock is free.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EdgelogError } from '../../src/errors/index.js';
import { openPool } from '../../src/store/postgres/connection.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { asPostgresStoreError } from '../../src/store/postgres/postgres-error.js';
import { PARTITION_LOCK, Partitions } from '../../src/store/postgres/partitions.js';
import type { Day } from '../../src/time/utc-day.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();

describe.skipIf(server === null)('the partition lock held by another session', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let holder: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase(server!);
    pool = openPool({ url: db.url, max: 2 }, () => {});
    await migratePostgres(pool);
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await pool?.end();
    await db?.drop();
  });

  async function partitionsOf(day: string): Promise<string[]> {
    const { rows } = await pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relname LIKE '%\\_' || $1 ORDER BY 1`,
      [day.replaceAll('-', '')],
    );
    return rows.map((r) => r.name);
  }

  it('fails a new partition with a retryable error naming the lock, then makes it once the lock is free', async () => {
    const partitions = new Partitions(pool, 300, 300);
    await holder.query('SELECT pg_advisory_lock($1)', [PARTITION_LOCK]);
    let err: unknown;
    try {
      err = await partitions.ensureDays(['2031-03-04' as Day]).then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [PARTITION_LOCK]);
    }
    expect(err).toBeInstanceOf(EdgelogError);
    expect((err as EdgelogError).retryable).toBe(true);
    expect((err as Error).message).toMatch(
      new RegExp(`partition lock \\(advisory lock ${PARTITION_LOCK}\\) .*held by another session`),
    );
    expect((err as Error).message).toContain('pg_locks');
    // The store's boundary keeps it as it is (retryable), and nothing was made meanwhile.
    expect(asPostgresStoreError(err, 'postgres://db/edgelog', 'writing')).toBe(err);
    expect(await partitionsOf('2031-03-04')).toEqual([]);

    await partitions.ensureDays(['2031-03-04' as Day]);
    expect(await partitionsOf('2031-03-04')).toEqual([
      'origin_error_logs_20310304',
      'quarantined_entries_20310304',
      'shield_event_logs_20310304',
    ]);
  });

  it('fails retention the same way while the lock is held', async () => {
    const partitions = new Partitions(pool, 300, 300);
    await holder.query('SELECT pg_advisory_lock($1)', [PARTITION_LOCK]);
    try {
      const err = await partitions.prune(Date.parse('2031-01-01T00:00:00Z')).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EdgelogError);
      expect((err as EdgelogError).retryable).toBe(true);
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [PARTITION_LOCK]);
    }
  });
});
