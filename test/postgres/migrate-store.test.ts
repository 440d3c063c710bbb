// `edgelog migrate-store` as a user runs it (the built CLI), from a SQLite archive made by a real
// ingestion (the engine against the simulator) into a real PostgreSQL: every table equal, a second run
// adds nothing, a run killed mid-table is completed by the next, a live lease refuses, a difference is an
// error exit, and bad input gets a clear message without the password.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { backupArchive } from '../../src/store/sqlite/backup.js';
import { storeTypes } from '../../src/store/postgres/connection.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { Partitions } from '../../src/store/postgres/partitions.js';
import { TABLES } from '../../src/store/migrate-store/tables.js';
import type { MigrateStoreResult } from '../../src/store/migrate-store/migrate-store.js';
import type { LedgerRow } from '../../src/store/ledger-types.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import { runCli, startCli } from '../support/cli.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { createTestDatabase, testServer, type TestDatabase } from './support/server.js';

const server = await testServer();
/** How the target's URL is shown: without user or password. */
const shown = (name: string) => {
  const u = new URL(server!.url);
  return `postgres://${u.host}/${name}`;
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

type Row = Record<string, unknown>;

/** Every row of a table, as objects sorted by the JSON of their key columns (both sides alike). */
function sortRows(rows: Row[], key: readonly string[]): Row[] {
  const k = (r: Row) => JSON.stringify(key.map((c) => r[c]));
  return rows.sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

async function pgRows(url: string, table: string, columns: readonly string[], key: readonly string[]) {
  const c = new pg.Client({ connectionString: url, types: storeTypes });
  await c.connect();
  try {
    const { rows } = await c.query<Row>(`SELECT ${columns.join(', ')} FROM ${table}`);
    return sortRows(rows, key);
  } finally {
    await c.end();
  }
}

async function pgQuery<T extends Row>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, types: storeTypes });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** What a table of the source must look like in the target: U+0000 escaped, leases not copied. */
function expectedRows(
  file: string,
  table: string,
  columns: readonly string[],
  key: readonly string[],
): Row[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).all() as Row[];
    for (const r of rows) {
      for (const [c, v] of Object.entries(r)) {
        if (typeof v === 'string') r[c] = v.replaceAll('\u0000', '\\u0000');
      }
      for (const c of TABLES.find((t) => t.name === table)?.cleared ?? []) r[c] = null;
    }
    return sortRows(rows, key);
  } finally {
    db.close();
  }
}

const ROLLUP_KEYS: Record<string, string[]> = {
  origin_hourly: ['pull_zone_id', 'hour', 'status_code', 'error_code', 'count'],
  shield_hourly: ['shield_zone_id', 'hour', 'rule_id', 'severity', 'status', 'count'],
};

/** Every copied table and both rollups hold in the target exactly what the source holds. */
async function expectEqualArchives(file: string, url: string): Promise<void> {
  const db = new Database(file, { readonly: true });
  const columnsOf = (t: string) =>
    (db.pragma(`table_xinfo(${t})`) as Array<{ name: string; hidden: number }>)
      .filter((c) => c.hidden === 0)
      .map((c) => c.name);
  const tables = TABLES.map((t) => ({
    name: t.name,
    columns: columnsOf(t.name).filter((c) => !t.skip.includes(c)),
    key: t.conflict.columns,
  }));
  db.close();
  for (const t of tables) {
    const want = expectedRows(file, t.name, t.columns, t.key);
    const got = await pgRows(url, t.name, t.columns, t.key);
    expect(got.length, t.name).toBe(want.length);
    expect(got, t.name).toEqual(want);
  }
  for (const [table, columns] of Object.entries(ROLLUP_KEYS)) {
    expect(await pgRows(url, table, columns, columns), table).toEqual(
      expectedRows(file, table, columns, columns),
    );
  }
}

/** Every ledger day of the target with its totals and the rows the target holds of that day. */
async function ledgerTotals(url: string) {
  return pgQuery<{
    day: string;
    state: string;
    archived_entries: number;
    rows: number;
    quarantined_entries: number;
    quarantined_rows: number;
  }>(
    url,
    `SELECT l.source || ' ' || l.zone_id || ' ' || l.log_date AS day, l.state, l.archived_entries,
       CASE l.source
         WHEN 'origin' THEN (SELECT count(*) FROM origin_error_logs e
                             WHERE e.pull_zone_id = l.zone_id AND e.log_date = l.log_date)
         ELSE (SELECT count(*) FROM shield_event_logs e
               WHERE e.shield_zone_id = l.zone_id AND e.log_date = l.log_date)
       END AS rows,
       l.quarantined_entries,
       (SELECT count(*) FROM quarantined_entries q
        WHERE q.source = l.source AND q.zone_id = l.zone_id AND q.log_date = l.log_date) AS quarantined_rows
     FROM ingest_ledger l ORDER BY 1`,
  );
}

async function sync(engine: Engine, days: Day[]): Promise<void> {
  const jobs = days.flatMap((day) => [
    { source: 'origin' as const, zone: 101, day, reason: 'sync' as const },
    { source: 'shield' as const, zone: 201, day, reason: 'sync' as const },
  ]);
  const added = await engine.runtime.enqueueSync(jobs);
  engine.runtime.startWorker();
  const outcomes = await engine.runtime.waitFor<DayResult>(added);
  expect(outcomes.map((o) => o.error)).toEqual(jobs.map(() => undefined));
}

function parseResult(stdout: string): MigrateStoreResult {
  return JSON.parse(stdout) as MigrateStoreResult;
}

/** Adds what an ingestion alone does not make: snapshots, alert rows, U+0000 in a row, a live lease. */
async function addTheRest(file: string): Promise<void> {
  const archive = openArchive(file);
  try {
    const db = archive.db;
    db.prepare(
      `INSERT INTO api_guardian_snapshots (shield_zone_id, taken_at, total_blocked_requests, total_requests_inspected, overview, error)
       VALUES (201, ?, 5, 100, '{"a":1}', NULL), (201, ?, NULL, NULL, NULL, '{"errorKey":"x"}'), (202, ?, 7, 9, NULL, NULL)`,
    ).run('2026-11-22T10:00:00.000Z', '2026-11-22T11:00:00.000Z', '2026-11-22T10:00:00.000Z');
    db.prepare(
      `INSERT INTO alert_state (rule, zone_id, source, state, since, fingerprint, first_evaluated_at, last_evaluated_at,
         last_notified_at, last_value, last_threshold, last_detail)
       VALUES ('errors', 101, 'origin', 'firing', ?, 'fp1', ?, ?, ?, 12.5, 10, '{"window":"15m"}'),
              ('quiet', 201, 'shield', 'inactive', ?, 'fp2', ?, ?, NULL, NULL, NULL, NULL)`,
    ).run(NOW - 60_000, NOW - 120_000, NOW, NOW - 30_000, NOW - 1, NOW - 1, NOW);
    db.prepare(
      `INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at, enqueued_at, delivered_at, attempts, last_error)
       VALUES ('n1', 'ops', 'errors', 101, 'firing', '{"id":"n1"}', ?, ?, ?, 1, NULL),
              ('n1', 'slack', 'errors', 101, 'firing', '{"id":"n1"}', ?, NULL, NULL, 2, 'HTTP 500')`,
    ).run(NOW - 30_000, NOW - 29_000, NOW - 28_000, NOW - 30_000);
    // A row PostgreSQL cannot store as it is (U+0000 in its text), stored as the SQLite store stores one.
    archive.shield.storeRows(201, TODAY, [
      {
        logId: 'nul-row',
        timestamp: NOW - 5_000,
        asn: null,
        country: 'DE',
        ruleId: 'r\u0000x',
        severity: 'LOW',
        method: 'GET',
        ruleGroup: null,
        status: 'BLOCKED',
        serverZone: null,
        url: '/nul',
        remoteIp: null,
        message: 'a \u0000 inside',
        log: '{}',
        parseError: null,
        extraLabels: null,
      },
    ]);
    // Counted in its day's ledger row, as storePage counts a row it adds.
    db.prepare(
      `UPDATE ingest_ledger SET archived_entries = archived_entries + 1
       WHERE source = 'shield' AND zone_id = 201 AND log_date = ?`,
    ).run(TODAY);
    // A worker of the source holds a day (its lease is not copied).
    db.prepare(
      `UPDATE ingest_ledger SET lease_owner = 'sqlite-worker', lease_until = ? WHERE source = 'origin' AND log_date = ?`,
    ).run(Date.now() + 3_600_000, TODAY);
  } finally {
    await archive.close();
  }
}

describe.skipIf(server === null)('edgelog migrate-store', () => {
  let dir: string;
  let file: string;
  const databases: TestDatabase[] = [];
  const newTarget = async () => {
    const d = await createTestDatabase(server!);
    databases.push(d);
    return d;
  };
  const cli = (args: string[]) => runCli(['migrate-store', ...args], { cwd: dir });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-migrate-store-'));
    file = join(dir, 'source.db');
    const h: Harness = await harness({
      entriesPerDay: 3_000,
      pageSize: 500,
      malformedRate: 0.02,
      oddEntryRate: 0.01,
    });
    try {
      await sync(await h.engine(), [addDays(TODAY, -1), TODAY]);
      await backupArchive(h.dbPath, file);
    } finally {
      await h.close();
    }
    await addTheRest(file);
  }, 120_000);
  afterAll(async () => {
    for (const d of databases) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table of an ingested archive; a second run adds nothing', async () => {
    const target = await newTarget();
    const first = await cli(['--from', file, '--to', target.url, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const r = parseResult(first.stdout);
    expect(r.ok).toBe(true);
    const by = Object.fromEntries(r.tables.map((t) => [t.table, t]));
    // The ingestion made entries of both sources, quarantined entries, and the ledger's days.
    expect(by.origin_error_logs!.read).toBeGreaterThan(3_000);
    expect(by.shield_event_logs!.read).toBeGreaterThan(3_000);
    expect(by.quarantined_entries!.read).toBeGreaterThan(0);
    expect(by.ingest_ledger!.read).toBe(4);
    for (const t of r.tables) expect(t).toMatchObject({ inserted: t.read, alreadyThere: 0 });
    expect(by.shield_event_logs!.escaped).toBe(1);
    expect(r.sourceLiveLeases).toBe(1);
    await expectEqualArchives(file, target.url);
    // The day partitions of the days copied.
    const parts = await pgQuery<{ name: string }>(
      target.url,
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'shield_event_logs'::regclass`,
    );
    expect(parts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['shield_event_logs_20261121', 'shield_event_logs_20261122']),
    );

    const again = await cli(['--from', file, '--to', target.url]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^migrate-store .*source\\.db → ${escape(shown(target.name))}\n`),
    );
    const table = again.stdout
      .split('\n')
      .filter((l) => /^(origin|shield|quarantined|api|alert|ingest|term|history)_\w+ +\d/.test(l));
    expect(table).toHaveLength(TABLES.length);
    for (const line of table) {
      const [, read, inserted, updated, there] = line.trim().split(/\s{2,}/);
      expect({ line, inserted, updated }).toEqual({ line, inserted: '0', updated: '0' });
      expect(there).toBe(read);
    }
    expect(again.stdout).toContain('verified: the target holds every row of the source');
    await expectEqualArchives(file, target.url);
  });

  it('completes a run killed in the middle of a table', async () => {
    const target = await newTarget();
    // The target migrated, and a row of the middle of the Shield entries inserted by another session
    // that does not commit: the copy waits on that row's key, with the batches before it committed.
    const pool = new pg.Pool({ connectionString: target.url, max: 2 });
    const blocker = new pg.Client({ connectionString: target.url });
    await blocker.connect();
    let killedAt: { origin: number; shield: number; ledger: number };
    const source = new Database(file, { readonly: true });
    const shieldTotal = source.prepare('SELECT count(*) FROM shield_event_logs').pluck().get() as number;
    const middle = source
      .prepare(
        'SELECT shield_zone_id, log_id, log_date, timestamp FROM shield_event_logs ORDER BY rowid LIMIT 1 OFFSET ?',
      )
      .get(Math.floor(shieldTotal / 2)) as {
      shield_zone_id: number;
      log_id: string;
      log_date: string;
      timestamp: number;
    };
    source.close();
    try {
      await migratePostgres(pool);
      await new Partitions(pool).ensureDays([middle.log_date as Day, addDays(middle.log_date as Day, 1)]);
      await blocker.query('BEGIN');
      await blocker.query(
        "INSERT INTO shield_event_logs (shield_zone_id, log_id, log_date, timestamp, batch) VALUES ($1, $2, $3, $4, nextval('write_batch_seq'))",
        [middle.shield_zone_id, middle.log_id, middle.log_date, middle.timestamp],
      );
      const run = startCli(['migrate-store', '--from', file, '--to', target.url, '--batch-rows', '500'], {
        cwd: dir,
      });
      let waiting = false;
      for (let i = 0; i < 600 && !waiting; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const { rows } = await pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'edgelog'
           AND datname = current_database()`,
        );
        waiting = rows.length > 0;
      }
      expect(waiting, run.output().stderr).toBe(true);
      run.child.kill('SIGKILL');
      await run.done;
      await blocker.query('ROLLBACK');
      const n = async (table: string) =>
        Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
      killedAt = {
        origin: await n('origin_error_logs'),
        shield: await n('shield_event_logs'),
        ledger: await n('ingest_ledger'),
      };
    } finally {
      await blocker.end();
      await pool.end();
    }
    // Killed half-way through the Shield entries, before the ledger.
    expect(killedAt.origin).toBeGreaterThan(0);
    expect(killedAt.shield).toBeGreaterThan(0);
    expect(killedAt.shield).toBeLessThan(shieldTotal);
    expect(killedAt.ledger).toBe(0);

    const resumed = await cli(['--from', file, '--to', target.url, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const r = parseResult(resumed.stdout);
    const by = Object.fromEntries(r.tables.map((t) => [t.table, t]));
    expect(by.origin_error_logs).toMatchObject({ inserted: 0, alreadyThere: killedAt.origin });
    expect(by.shield_event_logs).toMatchObject({
      inserted: shieldTotal - killedAt.shield,
      alreadyThere: killedAt.shield,
    });
    expect(r.ok).toBe(true);
    await expectEqualArchives(file, target.url);
  });

  it('refuses while a worker holds a live lease in the target', async () => {
    const target = await newTarget();
    expect((await cli(['--from', file, '--to', target.url])).code).toBe(0);
    await pgQuery(
      target.url,
      `UPDATE ingest_ledger SET lease_owner = 'pg-worker-7', lease_until = $1 WHERE source = 'shield' AND log_date = $2`,
      [Date.now() + 60_000, TODAY],
    );
    const refused = await cli(['--from', file, '--to', target.url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^edgelog: a worker is writing to ${escape(shown(target.name))}: 1 live lease \\(shield zone 201 day 2026-11-22 held by pg-worker-7 for \\d+ s more\\)\\. Stop the workers`,
      ),
    );
  });

  it('into a target holding data of its own: verified, and the data named', async () => {
    const target = await newTarget();
    // The target archived a zone and days of its own before (a worker on PostgreSQL), and an entry of
    // a day the source has too, with its hourly count.
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    try {
      await migratePostgres(pool);
      await new Partitions(pool).ensureDays([TODAY, addDays(TODAY, -40)]);
    } finally {
      await pool.end();
    }
    const hour = (ms: number) => ms - (ms % 3_600_000);
    await pgQuery(
      target.url,
      `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, batch)
       VALUES (999, 'own-1', $1, $2, nextval('write_batch_seq')), (101, 'own-2', $3, $4, nextval('write_batch_seq')),
         (101, 'own-3', $1, $2, nextval('write_batch_seq'))`,
      [TODAY, NOW, addDays(TODAY, -40), NOW - 40 * 86_400_000],
    );
    await pgQuery(
      target.url,
      `INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
       VALUES (999, $1, 0, '', 1), (101, $2, 0, '', 1), (101, $1, 0, '', 1)`,
      [hour(NOW), hour(NOW - 40 * 86_400_000)],
    );
    await pgQuery(
      target.url,
      `INSERT INTO api_guardian_snapshots (shield_zone_id, taken_at) VALUES (9, 'x')`,
    );
    await pgQuery(
      target.url,
      `INSERT INTO ingest_ledger (source, zone_id, log_date, state, updated_at) VALUES ('origin', 999, $1, 'complete', 1)`,
      [TODAY],
    );

    const run = await cli(['--from', file, '--to', target.url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('verified: the target holds every row of the source');
    const notes = run.stdout.split('\n').filter((l) => l.startsWith('note: ') && l.includes(': the target '));
    expect(notes).toEqual([
      "note: origin_error_logs: the target holds 1 rows more than the source in 1 of the source's (pull_zone_id, log_date) (its own, from before the copy): left as they are",
      "note: origin_error_logs: the target also holds 2 rows outside the source's (pull_zone_id, log_date) (its own data): left as they are, not compared",
      // Its own counts of its own entries: the source's counts replace only the keys the source has.
      "note: origin_hourly: the target holds 1 rows more than the source in 1 of the source's (pull_zone_id, hour - hour % 86400000) (its own, from before the copy): left as they are",
      "note: origin_hourly: the target also holds 2 rows outside the source's (pull_zone_id, hour - hour % 86400000) (its own data): left as they are, not compared",
      "note: api_guardian_snapshots: the target also holds 1 rows outside the source's (shield_zone_id, substr(taken_at, 1, 10)) (its own data): left as they are, not compared",
      "note: ingest_ledger: the target also holds 1 rows outside the source's (source, zone_id, log_date) (its own data): left as they are, not compared",
    ]);
    // The source's days count the target's own entry among their rows (origin 101 today holds own-3).
    const totals = (await ledgerTotals(target.url)).filter((t) => !t.day.startsWith('origin 999 '));
    expect(totals).toHaveLength(4);
    for (const t of totals) {
      expect({ day: t.day, archived: t.archived_entries }).toEqual({ day: t.day, archived: t.rows });
    }
  });

  it("rows missing: run it again; an hourly count that differs is the source's again after a run", async () => {
    const target = await newTarget();
    expect((await cli(['--from', file, '--to', target.url])).code).toBe(0);

    // A target that drops new snapshots, and lost one of the source's: that row stays missing.
    await pgQuery(
      target.url,
      `CREATE FUNCTION edgelog_test_drop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
       CREATE TRIGGER edgelog_test_drop BEFORE INSERT ON api_guardian_snapshots
       FOR EACH ROW EXECUTE FUNCTION edgelog_test_drop();
       DELETE FROM api_guardian_snapshots WHERE shield_zone_id = 202`,
    );
    const missing = await cli(['--from', file, '--to', target.url]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/api_guardian_snapshots rows +3 +2 +1 MISSING/);
    expect(missing.stderr).toBe(
      'edgelog: the copy differs from the source: api_guardian_snapshots: 1 rows of the source are not in ' +
        'the target, in 1 of its 2 (shield_zone_id, substr(taken_at, 1, 10)) ((202, 2026-11-22): 1 of 1): run ' +
        'migrate-store again, which copies only what is missing; if they are still missing, something in the ' +
        'target refuses or removes them (a trigger, a rule, the retention of a worker using it)\n',
    );
    await pgQuery(target.url, 'DROP TRIGGER edgelog_test_drop ON api_guardian_snapshots');

    // An hourly count off by one: the source's counts are copied (they count the days pruned into the
    // history too), so the next run puts the source's back.
    await pgQuery(
      target.url,
      `UPDATE shield_hourly SET count = count + 1
       WHERE ctid = (SELECT ctid FROM shield_hourly WHERE shield_zone_id = 201 AND hour >= $1 ORDER BY hour LIMIT 1)`,
      [Date.parse(`${TODAY}T00:00:00Z`)],
    );
    const mended = await cli(['--from', file, '--to', target.url, '--json']);
    expect(mended.code, mended.stderr).toBe(0);
    const copied = parseResult(mended.stdout).tables.find((t) => t.table === 'shield_hourly');
    expect(copied).toMatchObject({ inserted: 0, updated: 1 });
    await expectEqualArchives(file, target.url);
  });

  it("brings the target's notifications up to date where the source's moved on, and keeps those that moved further", async () => {
    const target = await newTarget();
    const own = join(dir, 'notifications.db');
    await backupArchive(file, own);
    expect((await cli(['--from', own, '--to', target.url])).code).toBe(0);
    // Since the copy: the source delivered n1 to slack at its third attempt; the target's worker tried
    // n1 to ops four more times.
    const source = new Database(own);
    source
      .prepare(
        `UPDATE alert_notifications SET enqueued_at = ?, delivered_at = ?, attempts = 3, last_error = NULL
         WHERE id = 'n1' AND hook = 'slack'`,
      )
      .run(NOW - 20_000, NOW - 10_000);
    source.close();
    await pgQuery(
      target.url,
      `UPDATE alert_notifications SET attempts = 5, last_error = 'HTTP 502' WHERE id = 'n1' AND hook = 'ops'`,
    );
    const again = await cli(['--from', own, '--to', target.url, '--json']);
    expect(again.code, again.stderr).toBe(0);
    const r = parseResult(again.stdout);
    expect(r.tables.find((t) => t.table === 'alert_notifications')).toMatchObject({
      read: 2,
      inserted: 0,
      updated: 1,
      alreadyThere: 1,
    });
    const rows = await pgQuery(
      target.url,
      'SELECT hook, enqueued_at, delivered_at, attempts, last_error FROM alert_notifications ORDER BY hook',
    );
    expect(rows).toEqual([
      {
        hook: 'ops',
        enqueued_at: NOW - 29_000,
        delivered_at: NOW - 28_000,
        attempts: 5,
        last_error: 'HTTP 502',
      },
      { hook: 'slack', enqueued_at: NOW - 20_000, delivered_at: NOW - 10_000, attempts: 3, last_error: null },
    ]);
  });

  it("merges a day the target's ledger holds by the ledger rules; each day's totals are its rows after the copy", async () => {
    const target = await newTarget();
    const yesterday = addDays(TODAY, -1);
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    try {
      await migratePostgres(pool);
      await new Partitions(pool).ensureDays([TODAY]);
    } finally {
      await pool.end();
    }
    const later = NOW + 86_400_000;
    // A worker on the target found yesterday's Shield day gone from the API, archived nothing, and
    // wrote its row after the source's (a later updated_at). And it completed today's origin day
    // (later than the source's partial pass) with an entry of its own.
    await pgQuery(
      target.url,
      `INSERT INTO ingest_ledger (source, zone_id, log_date, state, last_error, updated_at, finished_at)
       VALUES ('shield', 201, $1, 'expired', 'outside the window', $2, NULL)`,
      [yesterday, later],
    );
    await pgQuery(
      target.url,
      `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, batch) VALUES (101, 'own-today', $1, $2, nextval('write_batch_seq'))`,
      [TODAY, NOW - 1_000],
    );
    await pgQuery(
      target.url,
      `INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count) VALUES (101, $1, 0, '', 1)`,
      [NOW - 1_000 - ((NOW - 1_000) % 3_600_000)],
    );
    await pgQuery(
      target.url,
      `INSERT INTO ingest_ledger (source, zone_id, log_date, state, archived_entries, covered_until, updated_at, finished_at)
       VALUES ('origin', 101, $1, 'complete', 1, $2, $3, $3)`,
      [TODAY, NOW + 3_600_000, later],
    );
    const source = new Database(file, { readonly: true });
    const sourceDay = (src: string, day: string) =>
      source
        .prepare('SELECT * FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?')
        .get(src, src === 'origin' ? 101 : 201, day) as LedgerRow;
    const shieldYesterday = sourceDay('shield', yesterday);
    const originToday = sourceDay('origin', TODAY);
    source.close();
    expect(shieldYesterday).toMatchObject({ state: 'complete' });
    expect(shieldYesterday.archived_entries).toBeGreaterThan(0);
    expect(originToday).toMatchObject({ state: 'partial' });

    const run = await cli(['--from', file, '--to', target.url, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const r = parseResult(run.stdout);
    expect(r.tables.find((t) => t.table === 'ingest_ledger')).toMatchObject({
      read: 4,
      inserted: 2,
      updated: 2,
      alreadyThere: 0,
    });
    const rows = await pgQuery<LedgerRow & Row>(
      target.url,
      `SELECT * FROM ingest_ledger WHERE (source, log_date) IN (('shield', $1), ('origin', $2))`,
      [yesterday, TODAY],
    );
    const row = (src: string) => rows.find((x) => x.source === src)!;
    // Complete stays complete whatever a later pass met; the later pass's error is kept as its own.
    expect(row('shield')).toMatchObject({
      state: 'complete',
      archived_entries: shieldYesterday.archived_entries,
      quarantined_entries: shieldYesterday.quarantined_entries,
      covered_until: shieldYesterday.covered_until,
      finished_at: shieldYesterday.finished_at,
      last_error: 'outside the window',
      updated_at: later,
    });
    // The target's later complete pass wins over the source's partial one; the day holds both's rows.
    expect(row('origin')).toMatchObject({
      state: 'complete',
      archived_entries: originToday.archived_entries + 1,
      covered_until: NOW + 3_600_000,
      finished_at: later,
    });
    const totals = await ledgerTotals(target.url);
    expect(totals).toHaveLength(4);
    for (const t of totals) {
      expect(t).toMatchObject({ archived_entries: t.rows, quarantined_entries: t.quarantined_rows });
    }

    // Running it again finds every day as merged.
    const again = parseResult((await cli(['--from', file, '--to', target.url, '--json'])).stdout);
    expect(again.tables.find((t) => t.table === 'ingest_ledger')).toMatchObject({
      read: 4,
      inserted: 0,
      updated: 0,
      alreadyThere: 4,
    });
    expect(await ledgerTotals(target.url)).toEqual(totals);
  });

  it('says clearly what is wrong with its input, and never prints the password', async () => {
    const target = await newTarget();
    const missing = await cli(['--from', 'nowhere.db', '--to', target.url]);
    expect([missing.code, missing.stderr]).toEqual([1, 'edgelog: --from nowhere.db: no such file\n']);

    writeFileSync(join(dir, 'notes.txt'), 'not a database at all, just some text that is long enough');
    const text = await cli(['--from', 'notes.txt', '--to', target.url]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(
      /^edgelog: --from notes\.txt cannot be read as an SQLite archive: .*file is not a database/,
    );

    const other = new Database(join(dir, 'other.db'));
    other.exec('CREATE TABLE t (x)');
    other.close();
    const foreign = await cli(['--from', 'other.db', '--to', target.url]);
    expect(foreign.stderr).toBe(
      'edgelog: --from other.db is not an edgelog archive (it has no schema_migrations table)\n',
    );

    const old = new Database(join(dir, 'old.db'));
    old.exec(`CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT, checksum TEXT, applied_at TEXT);
      INSERT INTO schema_migrations VALUES (1, '0001_archive.sql', '', ''), (2, '0002_rollup_views.sql', '', ''), (3, '0003_alerts.sql', '', '')`);
    old.close();
    const behind = await cli(['--from', 'old.db', '--to', target.url]);
    expect(behind.stderr).toBe(
      'edgelog: --from old.db lacks migration 0004_quarantine_and_ledger_totals.sql, 0005_values_that_fit.sql, 0006_history.sql, 0007_silences.sql, 0008_new_terms_and_sql_alerts.sql, 0009_sql_alert_silences.sql, 0010_term_pending.sql, 0011_terms_from_entries.sql, 0012_write_batches.sql: run `edgelog migrate` with database.path set to it first\n',
    );

    const unreachable = await cli([
      '--from',
      file,
      '--to',
      'postgres://edgelog:s3cret-pw-42@127.0.0.1:1/edgelog',
    ]);
    expect(unreachable.code).toBe(1);
    // The password on the command line gets its warning line first (migrate-store-password.test.ts).
    expect(unreachable.stderr).toMatch(
      /^edgelog: warning: --to holds a password.*\nedgelog: cannot reach the PostgreSQL archive postgres:\/\/127\.0\.0\.1:1\/edgelog: .*ECONNREFUSED/,
    );
    expect(unreachable.stderr + unreachable.stdout).not.toContain('s3cret-pw-42');

    const notPostgres = await cli(['--from', file, '--to', join(dir, 'copy.db')]);
    expect(notPostgres.stderr).toBe('edgelog: --to must be a URL: postgres://user@host:port/database\n');
    const mysql = await cli(['--from', file, '--to', 'mysql://u:hunter2-pw@127.0.0.1/x']);
    expect(mysql.stderr).toMatch(
      /^edgelog: warning: --to holds a password.*\nedgelog: --to must be a postgres:\/\/ URL, not mysql:\/\/ \(an SQLite file goes in --from\)\n$/,
    );

    const usage = await cli(['--from', file]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/no PostgreSQL archive to copy into: pass --to .*EDGELOG_DATABASE_URL/);

    // A password that the server does not need (trust) is still never shown.
    const u = new URL(target.url);
    u.password = 'hunter2-pw-77';
    const ok = await cli(['--from', file, '--to', u.href]);
    expect(ok.code).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain('hunter2-pw-77');
    expect(ok.stdout).toContain(`→ ${shown(target.name)}\n`);
  });
});
