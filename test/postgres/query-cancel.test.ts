// PostgreSQL's read-only query path holds its bound whatever the statement does, and never leaves the
// server running a statement its client gave up (issue 28, item 4):
// - a statement that lifts its own statement_timeout (set_config(..., false), read by the next FETCH) is
//   still stopped at --timeout: cancelled from a second connection;
// - `edgelog query` stopped by SIGTERM cancels its statement on the server before it ends;
// - one killed outright (SIGKILL) leaves a statement the server ends itself within seconds
//   (client_connection_check_interval).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresQueries } from '../../src/store/postgres/read-only-query.js';
import { StoreQueryError } from '../../src/store/store-query-error.js';
import { startCli } from '../support/cli.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();

describe.skipIf(server === null)('query bounds the statement cannot lift', () => {
  let db: TestDatabase;
  let admin: pg.Client;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase(server!);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    dir = mkdtempSync(join(tmpdir(), 'edgelog-cancel-'));
  });
  afterAll(async () => {
    await admin?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sessions of this database named `app` running a statement (the cursor's FETCH reads the rows). */
  async function running(app: string): Promise<number> {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1 AND state = 'active'`,
      [app],
    );
    return Number(rows[0]!.n);
  }

  async function until(what: string, done: () => Promise<boolean>, ms: number): Promise<number> {
    const start = Date.now();
    while (!(await done())) {
      if (Date.now() - start > ms) throw new Error(`not ${what} after ${ms} ms`);
      await sleep(50);
    }
    return Date.now() - start;
  }

  it('a statement that lifts statement_timeout for its later reads is still stopped at the bound', async () => {
    const queries = new PostgresQueries({ connectionString: db.url });
    // Row 1 lifts the timeout (session-wide); each later row sleeps 3 s, read by FETCHes of their own.
    const sql = `SELECT set_config('statement_timeout', '0', false) AS lifted, pg_sleep(CASE WHEN i > 1 THEN 3 ELSE 0 END) AS slept
      FROM generate_series(1, 4) AS i`;
    const started = Date.now();
    const err = await queries
      .readOnly(sql, { timeoutMs: 500 }, async (cursor) => {
        while ((await cursor.next(1)).length > 0);
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(StoreQueryError);
    expect((err as StoreQueryError).kind).toBe('timeout');
    // The bound and the watchdog's grace, not the 9 s of sleeping.
    expect(took).toBeLessThan(2_500);
  });

  it('a caller that stops: the statement is cancelled on the server', async () => {
    const marker = 'edgelog stop test';
    const queries = new PostgresQueries({ connectionString: db.url, application_name: marker });
    const abort = new AbortController();
    const q = queries
      .readOnly('SELECT pg_sleep(30) AS slept', { timeoutMs: null, signal: abort.signal }, (c) => c.next(1))
      .then(
        () => null,
        (e: unknown) => e,
      );
    await until('running', async () => (await running(marker)) === 1, 10_000);
    abort.abort();
    const err = await q;
    expect((err as StoreQueryError).kind).toBe('stopped');
    expect(await running(marker)).toBe(0);
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    '`edgelog query` stopped by %s: the server does not keep running its statement',
    async (signal) => {
      const marker = 'edgelog query';
      const cli = startCli(['query', '--engine', 'store', 'SELECT pg_sleep(60) AS slept', '--timeout', '0'], {
        cwd: dir,
        env: { EDGELOG_DATABASE_URL: db.url },
      });
      await until('running', async () => (await running(marker)) === 1, 20_000);
      cli.child.kill(signal);
      const result = await cli.done;
      expect(result.signal).toBe(signal);
      // SIGTERM: cancelled before the process ended; SIGKILL: the server sees the client gone (1 s checks).
      const ended = await until('ended', async () => (await running(marker)) === 0, 5_000);
      expect(ended).toBeLessThan(signal === 'SIGTERM' ? 500 : 5_000);
    },
    60_000,
  );
});
