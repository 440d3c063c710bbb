// Readers on a PostgreSQL archive connect as a role of their own (database.readerUrl,
// EDGELOG_READER_DATABASE_URL), made with exactly the statements of docs/OPERATIONS.md ("A role for readers",
// read from that page here): `edgelog query` works as it, a day partition the worker makes later included,
// and what a superuser's "read-only" transaction still allowed is refused: reading the server's files,
// stopping the worker's connections, reloading or changing settings. `query` run as a superuser says so
// on stderr, in one line; report, status and alerts list use the reader's connection too.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTITION_LOCK } from '../../src/store/postgres/partitions.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { ArchiveStore } from '../../src/store/store.js';
import { runCli, writeConfig, type CliResult } from '../support/cli.js';
import { DAY, NOW, shieldPage, shieldRows } from './conformance.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();
const DAY_MS = 86_400_000;
const LEASE = 60_000;
const OPERATIONS = readFileSync(new URL('../../docs/OPERATIONS.md', import.meta.url), 'utf8');

/** The SQL block of docs/OPERATIONS.md's "A role for readers", one statement a line. */
function readmeRecipe(): string[] {
  const at = OPERATIONS.indexOf('**A role for readers.**');
  const block = /```sql\n([\s\S]*?)```/.exec(OPERATIONS.slice(at));
  if (at < 0 || !block) throw new Error('docs/OPERATIONS.md: no "A role for readers" SQL block');
  return block[1]!
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('--'))
    .map((l) => l.replace(/;$/, ''));
}

/** The recipe for this test's names: its reader role, its database, the worker's role (the URL's user). */
function forThisServer(statement: string, names: { reader: string; database: string; worker: string }) {
  return statement
    .replaceAll(/\bedgelog_reader\b/g, names.reader)
    .replaceAll(/\bDATABASE edgelog\b/g, `DATABASE ${names.database}`)
    .replaceAll(/\bFOR ROLE edgelog\b/g, `FOR ROLE ${names.worker}`)
    .replaceAll(/\bTO edgelog$/g, `TO ${names.worker}`);
}

/** Every advisory lock function on a bigint key (the worker's keys are bigints). */
const ADVISORY_LOCKS = ['', 'try_'].flatMap((t) =>
  ['', 'xact_'].flatMap((x) => ['', '_shared'].map((sh) => `pg_${t}advisory_${x}lock${sh}`)),
);

describe.skipIf(server === null)('a role for readers (the recipe in docs/OPERATIONS.md)', () => {
  let db: TestDatabase;
  let store: ArchiveStore;
  let worker: pg.Client;
  let dir: string;
  let readerUrl: string;
  const reader = `edgelog_reader_${randomBytes(4).toString('hex')}`;
  const workerRole = `edgelog_worker_${randomBytes(4).toString('hex')}`;
  const otherRole = `edgelog_other_${randomBytes(4).toString('hex')}`;
  const laterDay = new Date(NOW + 30 * DAY_MS).toISOString().slice(0, 10);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-reader-'));
    db = await createTestDatabase(server!);
    store = await openPostgresStore({ url: db.url, max: 3, now: () => NOW });
    const key = { source: 'shield' as const, zone: 201, day: DAY };
    await store.ledger.claim(key, 'w', NOW, LEASE, true);
    await store.storePage(key, 'w', shieldPage(shieldRows(5), 1, null, 1), NOW, LEASE);

    worker = new pg.Client({ connectionString: db.url });
    await worker.connect();
    const names = { reader, database: db.name, worker: new URL(db.url).username || 'postgres' };
    for (const statement of readmeRecipe()) await worker.query(forThisServer(statement, names));
    const u = new URL(db.url);
    u.username = reader;
    u.password = 'choose-one';
    readerUrl = u.href;

    // A partition the worker makes after the grants, with a row in it.
    const later = { source: 'shield' as const, zone: 201, day: laterDay };
    await store.ledger.claim(later, 'w', NOW, LEASE, true);
    const rows = shieldRows(2, 100, Date.parse(`${laterDay}T00:00:00Z`));
    await store.storePage(later, 'w', shieldPage(rows, 1, null, 1), NOW, LEASE);
  });
  afterAll(async () => {
    await worker?.end();
    await store?.close();
    await db?.drop();
    // Roles belong to the server, not the database: dropped after it (its grants went with it).
    const admin = new pg.Client({ connectionString: server!.url });
    await admin.connect();
    await admin
      .query(`DROP ROLE IF EXISTS ${reader}, ${workerRole}, ${otherRole}`)
      .finally(() => admin.end());
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * `edgelog query --engine store` as a reader on a host that has the worker's URL and the reader's:
   * PostgreSQL's own SQL on the reader's connection (the archive's dialect runs in DuckDB, which reaches
   * none of these functions: the test after these).
   */
  const query = (sql: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(['query', '--engine', 'store', sql, '--format', 'ndjson'], {
      cwd: dir,
      env: { EDGELOG_DATABASE_URL: db.url, EDGELOG_READER_DATABASE_URL: readerUrl, ...env },
    });

  it('query runs as the reader role: the archive, views and a partition made after the grants', async () => {
    const r = await query(
      `SELECT current_user AS "user", (SELECT count(*) FROM shield_event_logs) AS n,
         (SELECT count(*) FROM shield_event_logs_${laterDay.replaceAll('-', '')}) AS later,
         (SELECT count(*) FROM shield_events_daily) > 0 AS daily`,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ user: reader, n: 7, later: 2, daily: 1 });
  });

  it('an analyst host with only the reader URL reads the same', async () => {
    const r = await runCli(
      ['query', '--engine', 'store', 'SELECT current_user AS "user"', '--format', 'ndjson'],
      {
        cwd: dir,
        env: { EDGELOG_READER_DATABASE_URL: readerUrl },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`{"user":"${reader}"}\n`);
  });

  it.each([
    ['pg_read_file', "SELECT pg_read_file('postgresql.conf')", /permission denied for function pg_read_file/],
    ['lo_import', "SELECT lo_import('/etc/hostname')", /permission denied for function lo_import/],
    ['pg_reload_conf', 'SELECT pg_reload_conf()', /permission denied for function pg_reload_conf/],
    [
      'set_config',
      "SELECT set_config('session_replication_role', 'replica', false)",
      /permission denied to set parameter "session_replication_role"/,
    ],
  ])('refuses %s', async (_name, sql, refusal) => {
    const r = await query(sql);
    expect(r.stderr).toMatch(refusal);
    expect(r.code).not.toBe(0);
  });

  it("refuses pg_terminate_backend of a worker's connection, which lives on", async () => {
    const { rows } = await worker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const r = await query(`SELECT pg_terminate_backend(${rows[0]!.pid})`);
    expect(r.stderr).toMatch(/must be a superuser to terminate superuser process/);
    expect(r.code).not.toBe(0);
    expect((await worker.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('query as the worker, a superuser, works and says so on stderr in one line', async () => {
    const r = await runCli(['query', '--engine', 'store', 'SELECT 1 AS one', '--format', 'ndjson'], {
      cwd: dir,
      env: { EDGELOG_DATABASE_URL: db.url },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"one":1}\n');
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(
        /^edgelog: warning: query runs as the role \w+, a superuser .*database\.readerUrl or EDGELOG_READER_DATABASE_URL/,
      ),
    ]);
  });

  it('query as a role that may write the archive says so too', async () => {
    const writer = `edgelog_writer_${randomBytes(4).toString('hex')}`;
    await worker.query(`CREATE ROLE ${writer} LOGIN`);
    try {
      await worker.query(`GRANT SELECT, INSERT ON shield_event_logs TO ${writer}`);
      const u = new URL(db.url);
      u.username = writer;
      const r = await query('SELECT 1 AS one', { EDGELOG_READER_DATABASE_URL: u.href });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(
          `^edgelog: warning: query runs as the role ${writer}, which may write the archive \\(shield_event_logs\\)`,
        ),
      );
    } finally {
      await worker.query(`REVOKE ALL ON shield_event_logs FROM ${writer}`);
      await worker.query(`DROP ROLE ${writer}`);
    }
  });

  it("the archive's dialect reads the store through the reader's connection, and nothing else", async () => {
    const config = writeConfig(dir, { history: { path: join(dir, 'history') } }, 'archive.json');
    const env = { EDGELOG_READER_DATABASE_URL: readerUrl };
    const r = await runCli(
      [
        '--config',
        config,
        'query',
        '--format',
        'ndjson',
        `SELECT (SELECT count(*) FROM shield_event_logs) AS n, (SELECT count(*) FROM ingest_ledger) AS days`,
      ],
      { cwd: dir, env },
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ n: 7, days: 2 });
    // The server's functions are not there: the statement runs in DuckDB.
    const refused = await runCli(['--config', config, 'query', "SELECT pg_read_file('postgresql.conf')"], {
      cwd: dir,
      env,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/query failed: Catalog Error: Scalar Function with name pg_read_file/);
  });

  it('report, status and alerts list read as the reader role too', async () => {
    // The worker's URL names a role that does not exist: only the reader's connection can answer, and
    // the reader may not write (a migration, a partition or a lease tried would fail).
    const config = writeConfig(dir, {
      shieldZones: [201],
      redis: { url: 'redis://127.0.0.1:1', embedded: false },
      history: { path: join(dir, 'history') },
    });
    const nobody = new URL(db.url);
    nobody.username = 'no_such_role_here';
    const env = { EDGELOG_DATABASE_URL: nobody.href, EDGELOG_READER_DATABASE_URL: readerUrl };
    const report = await runCli(
      ['--config', config, 'report', 'shield', '--from', DAY, '--to', DAY, '--format', 'json'],
      { cwd: dir, env },
    );
    expect(report.stderr).toBe('');
    expect((JSON.parse(report.stdout) as { total: number }).total).toBe(5);
    const status = await runCli(['--config', config, 'status', '--format', 'json'], { cwd: dir, env });
    expect(status.stderr).toBe('');
    expect((JSON.parse(status.stdout) as { ledger: unknown[] }).ledger).toHaveLength(2);
    const alerts = await runCli(['--config', config, 'alerts', 'list', '--format', 'json'], {
      cwd: dir,
      env,
    });
    expect(alerts.stderr).toBe('');
    expect(JSON.parse(alerts.stdout)).toEqual({ rules: [], states: [], series: [], notices: [] });
  });

  it("cannot take edgelog's advisory locks, so a reader's session cannot stop a new day partition", async () => {
    const session = new pg.Client({ connectionString: readerUrl });
    await session.connect();
    try {
      const taken: string[] = [];
      for (const fn of ADVISORY_LOCKS) {
        const tried = await session.query(`SELECT ${fn}($1)`, [PARTITION_LOCK]).then(
          () => 'taken',
          (e: unknown) => (e as Error).message,
        );
        if (!/^permission denied for function pg_/.test(tried)) taken.push(`${fn}: ${tried}`);
        await session.query('ROLLBACK').catch(() => {});
      }
      expect(taken).toEqual([]);
      // With the reader's session open, the worker makes a day partition at once.
      const day = new Date(NOW + 40 * DAY_MS).toISOString().slice(0, 10);
      const key = { source: 'shield' as const, zone: 201, day };
      const started = Date.now();
      await store.ledger.claim(key, 'w', NOW, LEASE, true);
      await store.storePage(
        key,
        'w',
        shieldPage(shieldRows(1, 300, Date.parse(`${day}T00:00:00Z`)), 1, null, 1),
        NOW,
        LEASE,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await session.end();
    }
  });

  it("the recipe's grant gives a worker role that is no superuser the advisory locks; other roles have none", async () => {
    const grant = readmeRecipe().find((l) => /^GRANT EXECUTE ON FUNCTION pg_advisory/.test(l));
    expect(grant).toBeDefined();
    await worker.query(`CREATE ROLE ${workerRole} LOGIN`);
    await worker.query(`CREATE ROLE ${otherRole} LOGIN`);
    await worker.query(grant!.replace(/\bTO edgelog$/, `TO ${workerRole}`));
    const as = async (role: string) => {
      const u = new URL(db.url);
      u.username = role;
      const c = new pg.Client({ connectionString: u.href });
      await c.connect();
      try {
        await c.query('BEGIN');
        return await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]).then(
          () => 'taken',
          (e: unknown) => (e as Error).message,
        );
      } finally {
        await c.end();
      }
    };
    expect(await as(workerRole)).toBe('taken');
    expect(await as(otherRole)).toMatch(/^permission denied for function pg_advisory_xact_lock/);
  });
});
