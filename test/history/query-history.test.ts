// `edgelog query` in the archive's one dialect, on both stores: DuckDB over the history's parts and the
// store's rows not flushed into parts yet, and the store's own tables, each entry exactly once, read-only,
// time-bounded, with the store engine's formats.
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryCommand } from '../../src/commands/query.js';
import { describeError } from '../../src/errors/index.js';
import { openDuckDb, type OpenDuckDb } from '../../src/history/duckdb.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Day } from '../../src/time/utc-day.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { memoryStdout } from '../report/fixture.js';
import { NOW, type Harness } from '../support/harness.js';
import { compactArchive, historyRoot, storeQueries } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'] as Day[];

interface Archive {
  h: Harness;
  root: string;
  configPath: string;
}

/**
 * Three days of zones 101 (origin) and 201 (Shield): the first two flushed into parts and merged, the
 * third stored after the flush (an engine that keeps no history does not flush it): the store's rows
 * above the watermark.
 */
async function archive(kind: StoreKind): Promise<Archive> {
  const h = await storeHarness(kind, { entriesPerDay: 200, pageSize: 100, malformedRate: 0.01 });
  const root = historyRoot(h);
  const sync = async (days: Day[], history: { path: string | null }) => {
    const engine = await h.engine({ pullZones: [101], shieldZones: [201], history });
    const plan = syncPlan(
      engine.config,
      { from: days[0], to: days[days.length - 1], source: ['origin', 'shield'] },
      NOW,
    );
    expect((await executeSync(engine, plan)).summary.ok).toBe(true);
  };
  await sync(DAYS.slice(0, 2), { path: root });
  const pass = await compactArchive(h, () => NOW, { filter: { to: DAYS[1] } });
  expect(pass.days).toBeGreaterThanOrEqual(4);
  await sync(DAYS.slice(2), { path: null });
  const configPath = join(h.dir, 'edgelog.config.json');
  const database = h.databaseUrl ? { url: h.databaseUrl } : { path: h.dbPath };
  writeFileSync(configPath, JSON.stringify({ database, history: { path: root } }));
  return { h, root, configPath };
}

/** `edgelog -c <config> query <args…>`: its output, or the error it threw. */
async function query(configPath: string, ...args: string[]): Promise<string> {
  return queryOpening(openDuckDb, configPath, ...args);
}

/** `query` whose DuckDB connections are opened by `open`. */
async function queryOpening(open: OpenDuckDb, configPath: string, ...args: string[]): Promise<string> {
  const stdout = memoryStdout();
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.addCommand(queryCommand(stdout, () => {}, open).exitOverride());
  await program.parseAsync(['node', 'edgelog', '-c', configPath, 'query', ...args]);
  return stdout.text();
}

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Deletes a zone-day's entry rows from the store, as pruning does once its file is verified. */
async function prune(
  h: Harness,
  table: string,
  zoneColumn: string,
  zone: number,
  day: string,
): Promise<void> {
  const sql = `DELETE FROM ${table} WHERE ${zoneColumn} = ${zone} AND log_date = '${day}'`;
  if (h.databaseUrl === undefined) {
    const db = openDatabase(h.dbPath);
    try {
      db.prepare(sql).run();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: h.databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describeStores("edgelog query in the archive's dialect", (store) => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive(store);
  }, 90_000);
  afterAll(async () => a?.h.close());

  const PER_DAY = `SELECT log_date, count(*) AS n, count(DISTINCT log_id) AS ids FROM origin_error_logs GROUP BY log_date ORDER BY log_date`;

  it("counts each entry once, from the parts and the store's newer rows, as the store does", async () => {
    const archived = ndjson(await query(a.configPath, '--format', 'ndjson', PER_DAY));
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY));
    expect(archived.map((r) => r.log_date)).toEqual(DAYS);
    expect(archived).toEqual(stored);
    for (const r of archived) expect(r.n).toBe(r.ids);
  });

  it('shows the same rows and values as the store, `time` as the same ISO text', async () => {
    const cols = `log_id, log_date, timestamp, time, request_url, status_code, error_code, log, labels, parse_error`;
    const sql = `SELECT ${cols} FROM origin_error_logs ORDER BY timestamp, log_id`;
    const archived = await query(a.configPath, '--format', 'ndjson', sql);
    expect(archived).toBe(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(ndjson(archived)[0]!.time).toMatch(/^2026-11-20T\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shield = `SELECT shield_zone_id, log_id, time, country, rule_id, url, log, extra_labels FROM shield_event_logs ORDER BY timestamp, log_id`;
    expect(await query(a.configPath, '--format', 'csv', shield)).toBe(
      await query(a.configPath, '--engine', 'store', '--format', 'csv', shield),
    );
  });

  it('reads every day from the store when history.path is null', async () => {
    const configPath = join(a.h.dir, 'no-history.json');
    const database = a.h.databaseUrl ? { url: a.h.databaseUrl } : { path: a.h.dbPath };
    writeFileSync(configPath, JSON.stringify({ database, history: { path: null } }));
    expect(ndjson(await query(configPath, '--format', 'ndjson', PER_DAY))).toEqual(
      ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY)),
    );
  });

  it('opens one DuckDB per query and closes it; --engine store opens none', async () => {
    const opened: DuckDBConnection[] = [];
    const counting: OpenDuckDb = async (opts) => {
      const conn = await openDuckDb(opts);
      opened.push(conn);
      return conn;
    };
    const closed = (conn: DuckDBConnection) =>
      conn.run('SELECT 1').then(
        () => false,
        () => true,
      );
    expect(ndjson(await queryOpening(counting, a.configPath, '--format', 'ndjson', PER_DAY))).toEqual(
      ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY)),
    );
    expect(opened).toHaveLength(1);
    expect(await closed(opened[0]!)).toBe(true);
    await queryOpening(counting, a.configPath, 'SELECT count(*) FROM ingest_ledger');
    expect(opened).toHaveLength(2);
    expect(await closed(opened[1]!)).toBe(true);
    await queryOpening(counting, a.configPath, '--engine', 'store', PER_DAY);
    expect(opened).toHaveLength(2);
  });

  it('reads the ledger, rollups, their views and the history record in the same dialect, joined with entries', async () => {
    expect(
      ndjson(await query(a.configPath, '--format', 'ndjson', 'SELECT count(*) AS n FROM ingest_ledger')),
    ).toEqual([{ n: 6 }]);
    // Each day's ledger total against its entries, in one statement.
    const joined = ndjson(
      await query(
        a.configPath,
        '--format',
        'ndjson',
        `SELECT l.log_date, l.archived_entries AS ledger, count(e.log_id) AS entries
         FROM ingest_ledger l LEFT JOIN origin_error_logs e ON e.pull_zone_id = l.zone_id AND e.log_date = l.log_date
         WHERE l.source = 'origin' GROUP BY ALL ORDER BY 1`,
      ),
    );
    expect(joined.map((r) => r.log_date)).toEqual(DAYS);
    for (const r of joined) expect(r.entries).toBe(r.ledger);
    const daily = `SELECT day, sum(count) AS n FROM origin_errors_daily GROUP BY day ORDER BY day`;
    const rollup = ndjson(await query(a.configPath, '--format', 'ndjson', daily));
    expect(rollup).toEqual(
      ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', daily)),
    );
    const merged = ndjson(
      await query(
        a.configPath,
        '--format',
        'ndjson',
        `SELECT count(*) AS n FROM history_days WHERE part <> ''`,
      ),
    );
    expect(merged).toEqual([{ n: 4 }]);
    await expect(query(a.configPath, 'DELETE FROM origin_error_logs')).rejects.toThrow(/query refused/);
  });

  it('pages by time either way as the store does, its files listed in that order (timeOrder)', async () => {
    // The newest lines are the store's (day 3), then a merged day's: both orders cross from one to the
    // other, with a filter and a bound, as the explorer's page and live tail ask.
    const from = Date.parse('2026-11-21T12:00:00Z');
    for (const sql of [
      'SELECT log_id, timestamp, status_code, log FROM origin_error_logs ORDER BY timestamp DESC, log_id DESC LIMIT 250',
      `SELECT log_id, timestamp FROM origin_error_logs WHERE timestamp >= ${from} ORDER BY timestamp, log_id LIMIT 150`,
      `SELECT log_id, time, url FROM shield_event_logs WHERE timestamp < ${from} ORDER BY timestamp DESC, log_id DESC LIMIT 40`,
    ]) {
      const archived = await query(a.configPath, '--format', 'ndjson', sql);
      expect(ndjson(archived).length).toBeGreaterThan(30);
      expect(archived).toBe(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    }
  });

  it("lists the view's files newest first for a statement sorted newest first, the store's rows before them", async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    let conn: DuckDBConnection | null = null;
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      open: async (opts) => (conn = await openDuckDb(opts)),
    });
    const view = (sql: string) =>
      queries.readOnly(sql, { timeoutMs: null }, async () => {
        const r = await conn!.runAndReadAll(
          "SELECT sql FROM duckdb_views() WHERE view_name = 'origin_error_logs' AND NOT internal",
        );
        return String(r.getRows()[0]![0]);
      });
    const at = (text: string, day: string) => text.indexOf(`/day=${day}/`);
    const newest = await view('SELECT log_id FROM origin_error_logs ORDER BY timestamp DESC LIMIT 5');
    expect(at(newest, DAYS[1]!)).toBeGreaterThan(0);
    expect(at(newest, DAYS[1]!)).toBeLessThan(at(newest, DAYS[0]!));
    expect(newest.indexOf('edgelog_store.origin_error_logs')).toBeLessThan(at(newest, DAYS[1]!));
    const plain = await view('SELECT log_id FROM origin_error_logs LIMIT 5');
    expect(at(plain, DAYS[0]!)).toBeLessThan(at(plain, DAYS[1]!));
    expect(plain.indexOf('edgelog_store.origin_error_logs')).toBeGreaterThan(at(plain, DAYS[1]!));
  });

  it("reads from the store only its rows above the watermark, within the statement's own timestamp bounds", async () => {
    // 2026-11-21 12:00 to 2026-11-22 06:00: the end of a day in parts and the start of one in the store.
    const from = Date.parse('2026-11-21T12:00:00Z');
    const to = Date.parse('2026-11-22T06:00:00Z');
    const sql = `SELECT log_date, count(*) AS n, min(timestamp) AS first, max(timestamp) AS last FROM origin_error_logs WHERE timestamp >= ${from} AND timestamp < ${to} GROUP BY log_date ORDER BY log_date`;
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    let fromStore = -1;
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      onStoreRows: (_t, rows) => void (fromStore = rows),
    });
    const out = memoryOutput();
    await runStoreQuery(queries, sql, { format: 'ndjson', timeoutMs: 0 }, out);
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(stored.map((r) => r.log_date)).toEqual(['2026-11-21', '2026-11-22']);
    expect(ndjson(out.text())).toEqual(stored);
    // Only the store's day 2026-11-22, and of it only the rows before 06:00.
    expect(fromStore).toBe(Number(stored[1]!.n));
  });

  it('reads a pruned zone-day from its part', async () => {
    await prune(a.h, 'origin_error_logs', 'pull_zone_id', 101, DAYS[0]!);
    const archived = ndjson(await query(a.configPath, '--format', 'ndjson', PER_DAY));
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY));
    expect(archived.map((r) => r.log_date)).toEqual(DAYS);
    expect(stored.map((r) => r.log_date)).toEqual(DAYS.slice(1));
  });
});

describe("edgelog query in the archive's dialect: read-only and bounded", () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 90_000);
  afterAll(async () => a?.h.close());

  it.each([
    [
      'a file outside the history',
      `SELECT * FROM read_csv('/etc/passwd')`,
      /query refused: Permission Error/,
    ],
    ['read_text of any file', `SELECT * FROM read_text('/etc/hostname')`, /query refused: Permission Error/],
    [
      'COPY … TO',
      `COPY (SELECT * FROM origin_error_logs) TO '/tmp/edgelog-copy.csv'`,
      /query refused.*read-only/,
    ],
    ['a setting', `SET enable_external_access = true`, /query refused.*read-only/],
    ['ATTACH', `ATTACH '/tmp/edgelog-attach.duckdb'`, /query refused.*read-only/],
    ['CREATE TABLE', `CREATE TABLE t AS SELECT 1`, /query refused.*read-only/],
    ['two statements', `SELECT 1; SELECT 2`, /one statement per call/],
  ])('refuses %s with a clear error', async (_what, sql, error) => {
    await expect(query(a.configPath, sql)).rejects.toThrow(error);
  });

  it("refuses read_parquet of the history's own files once, as a refusal (not as a history that changed)", async () => {
    const sql = `SELECT count(*) FROM read_parquet('${a.root}/**/*.parquet')`;
    const failure: unknown = await query(a.configPath, sql).catch((err: unknown) => err);
    const text = describeError(failure);
    expect(text).toMatch(/^query refused: Permission Error: Cannot access file /);
    expect(text.match(/Permission Error/g)).toHaveLength(1);
    expect(text).not.toMatch(/history changed/);
  });

  it("names the real tables when a statement names another, and never DuckDB's own suggestion", async () => {
    const failure = query(a.configPath, 'SELECT * FROM origin_errors');
    await expect(failure).rejects.toThrow(/Table with name origin_errors does not exist/);
    await expect(failure).rejects.toThrow(
      /the archive's tables and views: origin_error_logs, .*ingest_ledger.*docs\/SQL\.md/s,
    );
    await expect(failure).rejects.not.toThrow(/Did you mean/);
  });

  it("points a statement in the store's SQL at the dialect's page", async () => {
    await expect(query(a.configPath, 'SELECT id FROM origin_error_logs')).rejects.toThrow(
      /Binder Error.*\nedgelog query speaks DuckDB's SQL: docs\/SQL\.md/s,
    );
    await expect(query(a.configPath, "SELECT unixepoch('now') FROM origin_error_logs")).rejects.toThrow(
      /Scalar Function.*\nedgelog query speaks DuckDB's SQL/s,
    );
  });

  it('stops a statement at --timeout', async () => {
    const started = Date.now();
    await expect(
      query(a.configPath, '--timeout', '300ms', 'SELECT count(*) FROM range(100000000000) a'),
    ).rejects.toThrow(/stopped after/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps the CSV formula guard and --csv-raw', async () => {
    const sql = `SELECT '=HYPERLINK(1)' AS f, -5 AS n`;
    expect(await query(a.configPath, '--format', 'csv', sql)).toBe("f,n\r\n'=HYPERLINK(1),-5\r\n");
    expect(await query(a.configPath, '--format', 'csv', '--csv-raw', sql)).toBe(
      'f,n\r\n=HYPERLINK(1),-5\r\n',
    );
  });

  it('keeps a byte-order mark at the start of a text value (a hostile URL may begin with one)', async () => {
    const sql = `SELECT chr(65279) || '/a' AS url, (SELECT url FROM shield_event_logs LIMIT 0) AS none`;
    const rows = ndjson(await query(a.configPath, '--format', 'ndjson', sql));
    expect(rows).toEqual([{ url: '\ufeff/a', none: null }]);
  });

  it('keeps the table format, its limit and the values of each type', async () => {
    const text = await query(
      a.configPath,
      '--limit',
      '2',
      'SELECT pull_zone_id, time FROM origin_error_logs ORDER BY timestamp',
    );
    expect(text).toMatch(/^pull_zone_id {2}time\s*\n\s+101 {2}2026-11-20T/);
    expect(text).toMatch(/there are more/);
    const values = await query(
      a.configPath,
      '--format',
      'ndjson',
      `SELECT 9007199254740993::BIGINT AS big, 1.5::DOUBLE AS d, true AS b, NULL AS z, 12.25::DECIMAL(9,2) AS dec, DATE '2026-11-20' AS day, TIMESTAMP '2026-11-20 01:02:03.5' AS t`,
    );
    expect(values).toBe(
      '{"big":9007199254740993,"d":1.5,"b":1,"z":null,"dec":12.25,"day":"2026-11-20","t":"2026-11-20T01:02:03.500Z"}\n',
    );
  });
});

describe("edgelog query in the archive's dialect: a flush that ends while the store is read", () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 90_000);
  afterAll(async () => a?.h.close());

  it('reads again: each entry once, whether it was still in the store or already in a part', async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    let flushed = 0;
    const reads: number[] = [];
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      // The worker flushes the store's newer rows after they were read and before the watermark is
      // read again.
      onStoreRows: async (_t, rows) => {
        reads.push(rows);
        if (flushed === 0)
          flushed = (await compactArchive(a.h, () => NOW, { filter: { to: DAYS[1] } })).flush?.rows ?? 0;
      },
    });
    const sql = 'SELECT count(*) AS n FROM origin_error_logs';
    const out = memoryOutput();
    await runStoreQuery(queries, sql, { format: 'ndjson', timeoutMs: 0 }, out);
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(flushed).toBeGreaterThan(0);
    // The first read found day 3 in the store; the second, after the flush, none there.
    expect(reads[0]).toBeGreaterThan(0);
    expect(reads.slice(1)).toEqual([0]);
    expect(ndjson(out.text())).toEqual(stored);
  });
});

describe("edgelog query in the archive's dialect: a part removed after it was listed", () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 90_000);
  afterAll(async () => a?.h.close());

  it('answers from the history as it is now (listed again), each entry once', async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    const { dayDir } = await import('../../src/history/layout.js');
    const dir = dayDir(a.root, 'origin_error_logs', 101, DAYS[0]!);
    const name = readdirSync(dir).find((n) => n.startsWith('part-'))!;
    let replaced = false;
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      // After the listing and before DuckDB opens the files, a merge replaces the day's part: the new
      // part (the same batches, another name) is published, then the old one removed.
      onStoreRows: () => {
        if (replaced) return;
        const merged = name.replace(/_(\d+)\.parquet$/, (_m, max: string) => `_${BigInt(max) + 1n}.parquet`);
        copyFileSync(join(dir, name), join(dir, merged));
        rmSync(join(dir, name));
        replaced = true;
      },
    });
    const sql = 'SELECT log_date, count(*) AS n FROM origin_error_logs GROUP BY log_date ORDER BY log_date';
    const out = memoryOutput();
    await runStoreQuery(queries, sql, { format: 'ndjson', timeoutMs: 0 }, out);
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(replaced).toBe(true);
    expect(ndjson(out.text())).toEqual(stored);
  });
});

describe("a page's statements over one snapshot of the archive (readEach)", () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 90_000);
  afterAll(async () => a?.h.close());

  /** Each statement's rows as `edgelog query --format ndjson` writes them, run alone. */
  const alone = async (sql: string) => ndjson(await query(a.configPath, '--format', 'ndjson', sql));

  it('answers each statement as it is answered alone, from one DuckDB whose views are made once', async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQueries } = await import('../../src/query/run-store-query.js');
    const opened: DuckDBConnection[] = [];
    const reads: string[] = [];
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      open: async (opts) => {
        const conn = await openDuckDb(opts);
        opened.push(conn);
        return conn;
      },
      onStoreRows: (table) => void reads.push(table),
    });
    const from = Date.parse('2026-11-21T12:00:00Z');
    // Different columns, bounds and orders of one table, another table, the store's tables and a view
    // over them: the view of each history table holds what every statement reads of it.
    const sqls = [
      `SELECT log_id, timestamp, log FROM origin_error_logs WHERE timestamp >= ${from} ORDER BY timestamp DESC, log_id DESC LIMIT 30`,
      `SELECT log_date, count(*) AS n FROM origin_error_logs GROUP BY ALL ORDER BY ALL`,
      `SELECT status_code, count(*) AS n FROM origin_error_logs WHERE log_date = '2026-11-20' GROUP BY ALL ORDER BY ALL`,
      'SELECT count(*) AS n, count(DISTINCT url) AS urls FROM shield_event_logs',
      'SELECT source, zone_id, log_date, state FROM ingest_ledger ORDER BY ALL',
      'SELECT * FROM origin_errors_daily ORDER BY ALL',
    ];
    const results = await runStoreQueries(
      queries,
      sqls.map((sql) => ({ sql, opts: { format: 'ndjson' } })),
      { timeoutMs: 0 },
    );
    expect(opened).toHaveLength(1);
    // The store's rows of each history table read once, for every statement that reads it.
    expect(reads.sort()).toEqual(['origin_error_logs', 'shield_event_logs']);
    for (const [i, sql] of sqls.entries()) {
      expect(ndjson(results[i]!.text), sql).toEqual(await alone(sql));
      expect(results[i]!.rows).toBeGreaterThan(0);
    }
    // Every connection closed.
    await expect(opened[0]!.run('SELECT 1')).rejects.toThrow();
  });

  it("sees one snapshot: rows stored while the page's statements run are in none of them", async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQueries } = await import('../../src/query/run-store-query.js');
    const db = openDatabase(a.h.dbPath);
    const copied = 'origin_error_logs';
    const before = (await alone(PER_DAY_N)) as Array<{ n: number }>;
    let stored = 0;
    const queries = archiveQueries({
      root: a.root,
      store: storeQueries(a.h),
      // Once the store's rows are read, a page of new rows is stored (a copy of day 3's, new ids).
      onStoreRows: (table) => {
        if (table !== copied || stored > 0) return;
        stored = db
          .prepare(
            `INSERT INTO ${copied} (${COPY_COLUMNS.join(', ')}) SELECT ${COPY_COLUMNS.map((c) => (c === 'log_id' ? "'x' || log_id" : c)).join(', ')} FROM ${copied} WHERE log_date = '${DAYS[2]}'`,
          )
          .run().changes;
      },
    });
    let outs: Array<{ text: string }>;
    try {
      outs = await runStoreQueries(
        queries,
        [PER_DAY_N, 'SELECT count(*) AS n FROM origin_error_logs'].map((sql) => ({
          sql,
          opts: { format: 'ndjson' },
        })),
        { timeoutMs: 0 },
      );
    } finally {
      db.close();
    }
    expect(stored).toBeGreaterThan(0);
    expect(ndjson(outs[0]!.text)).toEqual(before);
    const total = before.reduce((n, r) => n + Number(r.n), 0);
    expect(ndjson(outs[1]!.text)).toEqual([{ n: total }]);
    // The next question sees them.
    expect(((await alone('SELECT count(*) AS n FROM origin_error_logs')) as Array<{ n: number }>)[0]!.n).toBe(
      total + stored,
    );
  });

  it("starts over, every statement, when a part is removed under a later statement's start", async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { dayDir } = await import('../../src/history/layout.js');
    const dir = dayDir(a.root, 'shield_event_logs', 201, DAYS[0]!);
    const name = readdirSync(dir).find((n) => n.startsWith('part-'))!;
    const queries = archiveQueries({ root: a.root, store: storeQueries(a.h) });
    const sqls = [
      PER_DAY_N,
      'SELECT log_date, count(*) AS n FROM shield_event_logs GROUP BY ALL ORDER BY ALL',
    ];
    const calls: number[] = [];
    const answers = await queries.readEach(sqls, { timeoutMs: null }, async (i, cursor) => {
      calls.push(i);
      const rows = await cursor.next(100);
      // Once the first statement is answered, a merge replaces the part the second is to read.
      if (calls.length === 1) {
        const merged = name.replace(/_(\d+)\.parquet$/, (_m, max: string) => `_${BigInt(max) + 1n}.parquet`);
        copyFileSync(join(dir, name), join(dir, merged));
        rmSync(join(dir, name));
      }
      return rows.map((r) => r.map(String));
    });
    // The second statement failed to start: the first is answered again, on the history as it is now.
    expect(calls).toEqual([0, 0, 1]);
    for (const [i, sql] of sqls.entries())
      expect(answers[i]).toEqual((await alone(sql)).map((r) => Object.values(r).map(String)));
  });

  it('bounds the statements together: a slow one stops them all, as a timeout', async () => {
    const { archiveQueries } = await import('../../src/history/archive-queries.js');
    const { runStoreQueries } = await import('../../src/query/run-store-query.js');
    const { QueryTimeoutError } = await import('../../src/query/query-timeout-error.js');
    const queries = archiveQueries({ root: a.root, store: storeQueries(a.h) });
    const started = performance.now();
    const run = runStoreQueries(
      queries,
      [
        'SELECT count(*) FROM origin_error_logs',
        'SELECT count(*) FROM range(1000000) a, range(1000000) b',
      ].map((sql) => ({ sql, opts: { format: 'ndjson' } })),
      { timeoutMs: 300 },
    );
    await expect(run).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

const PER_DAY_N = 'SELECT log_date, count(*) AS n FROM origin_error_logs GROUP BY log_date ORDER BY log_date';
/** The stored columns of origin_error_logs (its id and generated `time` left out). */
const COPY_COLUMNS = [
  'pull_zone_id',
  'log_id',
  'log_date',
  'timestamp',
  'request_url',
  'message',
  'error_code',
  'status_code',
  'server_zone',
  'log',
  'labels',
  'parse_error',
  'batch',
];
