// The CLI as a user runs it on a PostgreSQL archive (EDGELOG_DATABASE_URL): `edgelog sync` and
// `edgelog run` fill a fresh database with exactly what the simulator served (its oracle), and
// `edgelog query` and `edgelog status` read it. Skipped, with a line saying so, without a server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import { addDays, dayOf, type Day } from '../../src/time/utc-day.js';
import { clearOfMidnight } from '../fault/lib/clock.js';
import { waitFor } from '../fault/lib/wait.js';
import { killLeftOver, runCli, startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';
import { createTestDatabase, type TestDatabase } from './support/server.js';
import { describePostgres } from '../support/stores.js';

let h: Harness | undefined;
let db: TestDatabase | undefined;
let client: pg.Client | undefined;
const children: StartedCli[] = [];
afterEach(async () => {
  await killLeftOver(children);
  await client?.end();
  client = undefined;
  await h?.close();
  h = undefined;
  await db?.drop();
  db = undefined;
});

const PASSWORD = 'n0t-shown-anywhere';
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = PASSWORD;
  return u.href;
}

const TABLES = {
  origin: { table: 'origin_error_logs', zone: 'pull_zone_id', hourly: 'origin_hourly' },
  shield: { table: 'shield_event_logs', zone: 'shield_zone_id', hourly: 'shield_hourly' },
} as const;

/**
 * What the archive lacks or holds beyond the oracle for one zone-day (rows by key and log, quarantined
 * entries by raw text), and whether its ledger and rollups count the rows it holds.
 */
async function problems(
  c: pg.Client,
  source: 'origin' | 'shield',
  zone: number,
  day: Day,
): Promise<string[]> {
  const t = TABLES[source];
  const served = h!.sim.entries(source, zone, day);
  const key = (ts: unknown, id: unknown, log: unknown) => JSON.stringify([Number(ts), id, log ?? null]);
  const want = served
    .filter((e) => e.keyable)
    .map((e) => key(e.timestamp, e.logId, e.log))
    .sort();
  const rows = await c.query<{ log_id: string; timestamp: string; log: string | null }>(
    `SELECT log_id, timestamp, log FROM ${t.table} WHERE ${t.zone} = $1 AND log_date = $2`,
    [zone, day],
  );
  const got = rows.rows.map((r) => key(r.timestamp, r.log_id, r.log)).sort();
  const canonical = (raw: string) => JSON.stringify(JSON.parse(raw));
  const wantQ = served
    .filter((e) => !e.keyable)
    .map((e) => canonical(e.raw))
    .sort();
  const q = await c.query<{ raw: string }>(
    'SELECT raw FROM quarantined_entries WHERE source = $1 AND zone_id = $2 AND log_date = $3',
    [source, zone, day],
  );
  const gotQ = q.rows.map((r) => canonical(r.raw)).sort();
  const ledger = await c.query<{ archived_entries: string; quarantined_entries: string; state: string }>(
    'SELECT archived_entries, quarantined_entries, state FROM ingest_ledger WHERE source = $1 AND zone_id = $2 AND log_date = $3',
    [source, zone, day],
  );
  const rollup = await c.query<{ n: string | null }>(
    `SELECT sum(count) AS n FROM ${t.hourly} WHERE ${t.zone} = $1 AND hour >= $2 AND hour < $3`,
    [zone, Date.parse(`${day}T00:00:00Z`), Date.parse(`${day}T00:00:00Z`) + 86_400_000],
  );
  const at = `${source} ${zone} ${day}`;
  const out: string[] = [];
  if (JSON.stringify(got) !== JSON.stringify(want))
    out.push(`${at}: ${got.length} rows, ${want.length} keyable entries served (or they differ)`);
  if (JSON.stringify(gotQ) !== JSON.stringify(wantQ))
    out.push(`${at}: ${gotQ.length} quarantined, ${wantQ.length} unkeyable served (or they differ)`);
  const l = ledger.rows[0];
  if (!l) out.push(`${at}: no ledger row`);
  else {
    if (Number(l.archived_entries) !== got.length)
      out.push(`${at}: ledger archived_entries ${l.archived_entries}, rows ${got.length}`);
    if (Number(l.quarantined_entries) !== gotQ.length)
      out.push(`${at}: ledger quarantined_entries ${l.quarantined_entries}, quarantined ${gotQ.length}`);
  }
  // The rows of other days' timestamps fall in other hours; this day's entries are all of its day here.
  if (Number(rollup.rows[0]?.n ?? 0) < got.length)
    out.push(`${at}: the hourly rollup counts ${rollup.rows[0]?.n ?? 0}, rows ${got.length}`);
  return out;
}

function configFile(extra: Record<string, unknown> = {}): string {
  return writeConfig(h!.dir, {
    api: { ...h!.urls, accessKey: h!.sim.accessKey, retryBaseDelay: '10ms' },
    redis: { url: redisUrl(), prefix: h!.prefix, embedded: false },
    // Not used: EDGELOG_DATABASE_URL names the archive. A file appearing here would say it was.
    database: { path: h!.dbPath },
    // An archive on PostgreSQL names the history its workers and readers share.
    history: { path: join(h!.dir, 'history') },
    pullZones: [101],
    shieldZones: [201],
    // Yesterday is complete at once, also in the first hour after midnight (the default 1h delay).
    schedule: { finalizeDelay: '0s' },
    log: { level: 'warn' },
    ...extra,
  });
}

describePostgres('edgelog (EDGELOG_DATABASE_URL)', (_store, server) => {
  it('sync archives exactly the oracle; query and status read it; backup points at pg_dump', async () => {
    h = await harness({ entriesPerDay: 3_000, pageSize: 500 });
    db = await createTestDatabase(server);
    const env = { EDGELOG_DATABASE_URL: withPassword(db.url) };
    const config = configFile();
    const yesterday = addDays(TODAY, -1);
    const sync = await runCli(['--config', config, 'sync', '--date', yesterday, '--json'], {
      cwd: h.dir,
      env,
    });
    expect(sync.stderr).not.toContain('"level":50');
    expect(sync.code).toBe(0);
    const summary = JSON.parse(sync.stdout) as SyncSummary;
    expect(summary.ok).toBe(true);
    expect(summary.results.map((r) => `${r.source} ${r.outcome}`).sort()).toEqual([
      'origin complete',
      'shield complete',
    ]);

    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    expect([
      ...(await problems(client, 'origin', 101, yesterday)),
      ...(await problems(client, 'shield', 201, yesterday)),
    ]).toEqual([]);
    expect(existsSync(h.dbPath)).toBe(false);

    // A second sync of the same day adds nothing.
    const again = await runCli(['--config', config, 'sync', '--date', yesterday, '--json'], {
      cwd: h.dir,
      env,
    });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as SyncSummary).newEntries).toBe(0);
    expect(await problems(client, 'shield', 201, yesterday)).toEqual([]);

    const served = h.sim.entries('shield', 201, yesterday).filter((e) => e.keyable).length;
    const query = await runCli(
      [
        '--config',
        config,
        'query',
        '--json',
        'SELECT count(*) AS n, min(time) AS first FROM shield_event_logs',
      ],
      { cwd: h.dir, env },
    );
    // The test server's role is a superuser: query says so, once (reader-role.test.ts).
    expect(query.stderr).toMatch(/^edgelog: warning: query runs as the role \w+, a superuser [^\n]*\n$/);
    expect(query.code).toBe(0);
    const [row] = JSON.parse(query.stdout) as Array<{ n: number; first: string }>;
    expect(row!.n).toBe(served);
    expect(row!.first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const write = await runCli(['--config', config, 'query', 'DELETE FROM shield_event_logs'], {
      cwd: h.dir,
      env,
    });
    expect(write.code).not.toBe(0);
    expect(write.stderr).toMatch(/refused|read-only/);
    expect(await problems(client, 'shield', 201, yesterday)).toEqual([]);

    const status = await runCli(['--config', config, 'status', '--json'], { cwd: h.dir, env });
    expect(status.code).toBe(0);
    const shown = JSON.parse(status.stdout) as {
      archive: string;
      ledger: Array<{ source: string; log_date: string; state: string; archived_entries: number }>;
    };
    expect(shown.archive).toMatch(/^postgres(ql)?:\/\//);
    expect(status.stdout + status.stderr + sync.stdout + sync.stderr).not.toContain(PASSWORD);
    expect(shown.ledger).toContainEqual(
      expect.objectContaining({
        source: 'shield',
        log_date: yesterday,
        state: 'complete',
        archived_entries: served,
      }),
    );

    const report = await runCli(['--config', config, 'report', 'shield', '--json', '--to', yesterday], {
      cwd: h.dir,
      env,
    });
    expect(report.stderr).toBe('');
    expect(report.code).toBe(0);
    expect((JSON.parse(report.stdout) as { total: number }).total).toBe(served);
    const table = await runCli(['--config', config, 'report', 'origin', '--to', yesterday], {
      cwd: h.dir,
      env,
    });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/origin/i);

    const migrate = await runCli(['--config', config, 'migrate', '--json'], { cwd: h.dir, env });
    expect(migrate.code).toBe(0);
    const migrations = JSON.parse(migrate.stdout) as {
      database: string;
      migrations: Array<{ status: string }>;
    };
    expect(migrations.migrations.map((m) => m.status)).toEqual(
      migrations.migrations.map(() => 'already-applied'),
    );
    const alerts = await runCli(['--config', config, 'alerts', 'list', '--json'], { cwd: h.dir, env });
    expect(alerts.code).toBe(0);
    expect(existsSync(h.dbPath)).toBe(false);
    expect(migrate.stdout + report.stdout + alerts.stdout).not.toContain(PASSWORD);

    const backup = await runCli(['--config', config, 'backup', `${h.dir}/copy.db`], { cwd: h.dir, env });
    expect(backup.code).not.toBe(0);
    expect(backup.stderr).toMatch(/pg_dump/);
  }, 120_000);

  it('sync --concurrency beyond worker.concurrency gets a connection for each of its jobs', async () => {
    h = await harness({ entriesPerDay: 200, pageSize: 100 });
    db = await createTestDatabase(server);
    const env = { EDGELOG_DATABASE_URL: db.url };
    // worker.concurrency 1: a pool of 4 had it been sized from the configuration. 8 day jobs.
    const config = configFile({
      worker: { concurrency: 1 },
      pullZones: [101, 102],
      shieldZones: [201, 202],
    });
    expect((await runCli(['--config', config, 'migrate'], { cwd: h.dir, env })).code).toBe(0);
    // Every claim of a day writes the ledger: with the table locked, each of 6 day jobs at once waits on
    // the lock holding its connection, and the server shows how many connections the jobs have.
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    client = new pg.Client({ connectionString: db.url }); // outside the lock's transaction, whose
    await client.connect(); // view of pg_stat_activity would stay as it was at its first read
    const c = client;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE ingest_ledger IN SHARE MODE');
      const sync = startCli(
        [
          ...['--config', config, 'sync', '--from', addDays(TODAY, -2), '--to', addDays(TODAY, -1)],
          ...['--concurrency', '6', '--json'],
        ],
        { cwd: h.dir, env },
      );
      children.push(sync);
      let waiting = 0;
      await waitFor(
        'six jobs waiting on the ledger, each on a connection of its own',
        async () => {
          const { rows } = await c.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
             AND application_name = 'edgelog' AND wait_event_type = 'Lock'`,
          );
          waiting = Number(rows[0]!.n);
          return waiting >= 6 ? true : undefined;
        },
        { timeoutMs: 30_000 },
      ).catch((err: unknown) => {
        throw new Error(
          `${(err as Error).message} (${waiting} were); the sync wrote:\n${sync.output().stderr}`,
        );
      });
      await locker.query('ROLLBACK');
      const result = await sync.done;
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout) as SyncSummary;
      expect(summary.results.map((r) => r.outcome)).toEqual(Array(8).fill('complete'));
    } finally {
      await locker.end();
    }
  }, 120_000);

  it('run catches up into PostgreSQL and stops on SIGINT', async () => {
    const ROUND_MS = 40_000;
    await clearOfMidnight(ROUND_MS + 30_000);
    h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
    db = await createTestDatabase(server);
    const config = configFile({
      metrics: { listen: '127.0.0.1:0' },
      schedule: { originLookbackDays: 1, shieldLookbackDays: 1, finalizeDelay: '0s' },
      worker: { shutdownTimeout: '3s' },
      log: { level: 'info' },
    });
    // The server trusts local connections, so any password does; it must never be shown.
    const run = startCli(['--config', config, 'run'], {
      cwd: h.dir,
      env: { EDGELOG_DATABASE_URL: withPassword(db.url) },
    });
    children.push(run);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const c = client;
    const yesterday = addDays(dayOf(Date.now()), -1);
    await waitFor(
      'the run to complete yesterday of both sources',
      async () => {
        const r = await c
          .query<{ n: string }>(
            "SELECT count(*) AS n FROM ingest_ledger WHERE log_date = $1 AND state = 'complete'",
            [yesterday],
          )
          .catch(() => ({ rows: [{ n: '0' }] })); // not migrated yet
        return Number(r.rows[0]!.n) === 2 ? true : undefined;
      },
      { timeoutMs: ROUND_MS },
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; the worker wrote:\n${run.output().stderr}`);
    });
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('"level":50');
    expect(result.stderr + result.stdout).not.toContain(PASSWORD);
    // The start-up line names the archive written, not the unused SQLite default.
    const running = result.stderr.split('\n').find((line) => line.includes('"msg":"worker running"'));
    expect(JSON.parse(running!)).toMatchObject({ archive: `postgres://127.0.0.1:5432/${db.name}` });
    expect(running).not.toContain('edgelog.db');
    expect([
      ...(await problems(c, 'origin', 101, yesterday)),
      ...(await problems(c, 'shield', 201, yesterday)),
    ]).toEqual([]);
  }, 120_000);
});
