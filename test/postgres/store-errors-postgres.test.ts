// The PostgreSQL archive's setup failures as a user meets them (`edgelog sync` with EDGELOG_DATABASE_URL
// against the real server): each names the database by its URL without the password, the server's code
// and the fix, as the SQLite archive's errors do. Skipped, with a line saying so, without a server.
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, writeConfig, type CliResult } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();

const PASSWORD = 'n0t-shown-in-errors';
const YESTERDAY = addDays(TODAY, -1);

let h: Harness | undefined;
const dropAfter: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of dropAfter.splice(0).reverse()) await drop();
  await h?.close();
  h = undefined;
});

/** `url` as a user gives it: with a password (the server trusts local connections, so any will do). */
function withCredentials(url: string, user?: string): string {
  const u = new URL(url);
  if (user) u.username = user;
  u.password = PASSWORD;
  return u.href;
}

/** How the message names the database: its URL without user and password. */
function shown(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href;
}

async function admin<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

async function newDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase(server!);
  dropAfter.push(() => db.drop());
  return db;
}

/** A role that may log in and nothing more, dropped after the test. */
async function newRole(): Promise<string> {
  const role = `edgelog_test_role_${Math.random().toString(36).slice(2, 10)}`;
  await admin(server!.url, `CREATE ROLE ${role} LOGIN`);
  dropAfter.push(async () => void (await admin(server!.url, `DROP ROLE IF EXISTS ${role}`)));
  return role;
}

/** `edgelog sync` of yesterday's Shield day into the archive at `url`: one attempt, no retries. */
async function sync(url: string, json = false): Promise<CliResult> {
  h ??= await harness({ entriesPerDay: 200, pageSize: 100 });
  const config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms' },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    // An archive on PostgreSQL names the history every worker shares.
    history: { path: join(h.dir, 'history') },
    shieldZones: [201],
    worker: { jobAttempts: 1 },
    log: { level: 'warn' },
  });
  const args = ['--config', config, 'sync', '--date', YESTERDAY, '--source', 'shield'];
  const result = await runCli(json ? [...args, '--json'] : args, {
    cwd: h.dir,
    env: { EDGELOG_DATABASE_URL: url },
  });
  expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  return result;
}

/** The one line `edgelog: …` a failed start ends with. */
function lastLine(r: CliResult): string {
  expect(r.code).toBe(1);
  return r.stderr.trimEnd().split('\n').at(-1)!;
}

describe.skipIf(server === null)('PostgreSQL store errors name the database, the cause and the fix', () => {
  it('a server it cannot reach: refused, unknown host', async () => {
    const refused = withCredentials('postgres://postgres@127.0.0.1:1/edgelog');
    expect(lastLine(await sync(refused))).toBe(
      'edgelog: cannot reach the PostgreSQL server of postgres://127.0.0.1:1/edgelog ' +
        '(ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1): check that it runs, that database.url names ' +
        'its host and port, and that no firewall drops the connection',
    );
    const unknown = withCredentials('postgres://postgres@edgelog-db.invalid:5432/edgelog');
    expect(lastLine(await sync(unknown))).toMatch(
      /^edgelog: cannot reach the PostgreSQL server of postgres:\/\/edgelog-db\.invalid:5432\/edgelog \((ENOTFOUND|EAI_AGAIN): getaddrinfo \w+ edgelog-db\.invalid\): check that it runs, that database\.url names its host and port/,
    );
  });

  it('a login refused, a database that does not exist, TLS the server does not offer', async () => {
    const db = await newDatabase();
    const noRole = withCredentials(db.url, 'edgelog_no_such_role');
    expect(lastLine(await sync(noRole))).toBe(
      `edgelog: PostgreSQL refused the login to ${shown(db.url)} (28000: role "edgelog_no_such_role" ` +
        'does not exist): check the user and password in database.url (or PGPASSWORD), and that ' +
        'pg_hba.conf lets that user in from this host',
    );
    const noDb = new URL(withCredentials(db.url));
    noDb.pathname = `/${db.name}_absent`;
    expect(lastLine(await sync(noDb.href))).toBe(
      `edgelog: the database of ${shown(noDb.href)} does not exist (3D000: database "${db.name}_absent" ` +
        'does not exist): create it (createdb, or CREATE DATABASE as a superuser), or correct its name ' +
        'in database.url',
    );
    const [setting] = await admin<{ ssl: string }>(server!.url, 'SHOW ssl');
    if (setting?.ssl === 'off') {
      const tls = `${withCredentials(db.url)}?sslmode=require`;
      expect(lastLine(await sync(tls))).toBe(
        `edgelog: TLS to ${shown(tls)} failed (tls-off: The server does not support SSL connections): ` +
          'the server has TLS off; turn ssl on at the server, or remove sslmode=require from ' +
          'database.url (and database.ssl) on a network you trust',
      );
    }
  });

  it('a role without privileges, and a database with its connections used up', async () => {
    const db = await newDatabase();
    // Made by its owner: the tables exist, the role may connect (PUBLIC) but owns nothing.
    expect((await sync(withCredentials(db.url))).code).toBe(0);
    const role = await newRole();
    expect(lastLine(await sync(withCredentials(db.url, role)))).toMatch(
      new RegExp(
        `^edgelog: the user of ${escape(shown(db.url))} lacks a privilege \\(42501: migration 0001_archive\\.sql: permission denied for \\w+ \\w+\\): edgelog creates its tables and each day's partitions as it goes, so its user must own them`,
      ),
    );
    await admin(server!.url, `ALTER DATABASE ${db.name} CONNECTION LIMIT 0`);
    expect(lastLine(await sync(withCredentials(db.url, role)))).toBe(
      `edgelog: the PostgreSQL server of ${shown(db.url)} refused another connection (53300: too many ` +
        `connections for database "${db.name}"): edgelog holds its concurrency + 3 connections; lower ` +
        'worker.concurrency, or raise max_connections or the CONNECTION LIMIT of the role or database',
    );
  });

  it('a read-only database is refused at start', async () => {
    const db = await newDatabase();
    await admin(server!.url, `ALTER DATABASE ${db.name} SET default_transaction_read_only = on`);
    expect(lastLine(await sync(withCredentials(db.url)))).toBe(
      `edgelog: the database ${shown(db.url)} accepts no writes (25006: default_transaction_read_only ` +
        'is on): point database.url at the primary, not a standby, and turn ' +
        'default_transaction_read_only off (ALTER DATABASE … RESET default_transaction_read_only)',
    );
  });

  it('a full disk while writing a page: the day failed with the message, in the ledger too', async () => {
    const db = await newDatabase();
    expect((await sync(withCredentials(db.url))).code).toBe(0);
    // The server's answer when its disk is full, for every new Shield row.
    await admin(
      db.url,
      `TRUNCATE shield_event_logs, shield_hourly, ingest_ledger;
         CREATE FUNCTION edgelog_test_full() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
         CREATE TRIGGER edgelog_test_full BEFORE INSERT ON shield_event_logs
         FOR EACH ROW EXECUTE FUNCTION edgelog_test_full()`,
    );
    const result = await sync(withCredentials(db.url), true);
    const message =
      `disk full writing ${shown(db.url)} (53100: could not extend file: No space left on device): ` +
      "free space on the server's data and WAL disks; the day is kept at its last checkpoint and " +
      'ingestion resumes by itself';
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as SyncSummary;
    expect(summary.results.map((r) => [r.outcome, r.error])).toEqual([['failed', message]]);
    const [row] = await admin<{ state: string; last_error: string }>(
      db.url,
      `SELECT state, last_error FROM ingest_ledger WHERE source = 'shield'`,
    );
    expect(row).toEqual({ state: 'failed', last_error: message });
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
