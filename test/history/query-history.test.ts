// `edgelog query` on the history engine, on both stores: DuckDB over the Parquet files of the zone-days in
// history and the store's rows of the others, each entry exactly once, read-only, time-bounded, with the
// store engine's formats.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryCommand } from '../../src/commands/query.js';
import { openDuckDb, type OpenDuckDb } from '../../src/history/duckdb.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Day } from '../../src/time/utc-day.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { memoryStdout } from '../report/fixture.js';
import type { Harness } from '../support/harness.js';
import { storeQueries, writeHistoryDay } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'] as Day[];

interface Archive {
  h: Harness;
  root: string;
  configPath: string;
}

/** Three days of zones 101 (origin) and 201 (Shield), the first two in history. */
async function archive(kind: StoreKind): Promise<Archive> {
  const h = await storeHarness(kind, { entriesPerDay: 200, pageSize: 100, malformedRate: 0.01 });
  const engine = await h.engine({ pullZones: [101], shieldZones: [201] });
  const plan = syncPlan(
    engine.config,
    { from: DAYS[0], to: DAYS[2], source: ['origin', 'shield'] },
    Date.parse('2026-11-22T12:00:00Z'),
  );
  expect((await executeSync(engine, plan)).summary.ok).toBe(true);
  const root = join(h.dir, 'history');
  const store = storeQueries(h);
  for (const day of DAYS.slice(0, 2)) {
    expect(await writeHistoryDay(store, root, 'origin_error_logs', 101, day)).toBeGreaterThan(0);
    expect(await writeHistoryDay(store, root, 'shield_event_logs', 201, day)).toBeGreaterThan(0);
  }
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

describeStores('edgelog query --engine history', (store) => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive(store);
  }, 60_000);
  afterAll(async () => a?.h.close());

  const PER_DAY = `SELECT log_date, count(*) AS n, count(DISTINCT log_id) AS ids FROM origin_error_logs GROUP BY log_date ORDER BY log_date`;

  it('counts a zone-day held in a file and in the store once, as the store does', async () => {
    const history = ndjson(await query(a.configPath, '--format', 'ndjson', PER_DAY));
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY));
    expect(history.map((r) => r.log_date)).toEqual(DAYS);
    expect(history).toEqual(stored);
    for (const r of history) expect(r.n).toBe(r.ids);
  });

  it('shows the same rows and values as the store, `time` as the same ISO text', async () => {
    const cols = `log_id, log_date, timestamp, time, request_url, status_code, error_code, log, labels, parse_error`;
    const sql = `SELECT ${cols} FROM origin_error_logs ORDER BY timestamp, log_id`;
    const history = await query(a.configPath, '--format', 'ndjson', sql);
    expect(history).toBe(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(ndjson(history)[0]!.time).toMatch(/^2026-11-20T\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shield = `SELECT shield_zone_id, log_id, time, country, rule_id, url, log, extra_labels FROM shield_event_logs ORDER BY timestamp, log_id`;
    expect(await query(a.configPath, '--format', 'csv', shield)).toBe(
      await query(a.configPath, '--engine', 'store', '--format', 'csv', shield),
    );
  });

  it('defaults to the store engine when history.path is null', async () => {
    const configPath = join(a.h.dir, 'no-history.json');
    const database = a.h.databaseUrl ? { url: a.h.databaseUrl } : { path: a.h.dbPath };
    writeFileSync(configPath, JSON.stringify({ database, history: { path: null } }));
    // origin_hourly is the store's: only the store engine has it.
    expect(
      await query(configPath, '--format', 'csv', 'SELECT count(*) > 0 AS ok FROM origin_hourly'),
    ).toMatch(/ok\r\n1/);
    await expect(query(configPath, '--engine', 'history', 'SELECT 1')).rejects.toThrow(
      /history.path is null/,
    );
  });

  it('opens one DuckDB per query: the one that chose the history runs the statement, and is closed', async () => {
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
    // The one connection that parsed the statement ran it, and the query closed it.
    expect(opened).toHaveLength(1);
    expect(await closed(opened[0]!)).toBe(true);
    // The store answers the ledger: DuckDB parsed it and was closed.
    await queryOpening(counting, a.configPath, 'SELECT count(*) FROM ingest_ledger');
    expect(opened).toHaveLength(2);
    expect(await closed(opened[1]!)).toBe(true);
    // Told the engine: no choice, one DuckDB for the history, none for the store.
    await queryOpening(counting, a.configPath, '--engine', 'history', PER_DAY);
    await queryOpening(counting, a.configPath, '--engine', 'store', PER_DAY);
    expect(opened).toHaveLength(3);
  });

  it('runs what reads no entry table on the store by default: ledger, rollups, PRAGMA-like statements', async () => {
    const ledger = ndjson(
      await query(a.configPath, '--format', 'ndjson', 'SELECT count(*) AS n FROM ingest_ledger'),
    );
    expect(ledger).toEqual([{ n: 6 }]);
    await expect(query(a.configPath, 'DELETE FROM origin_error_logs')).rejects.toThrow(
      /query refused: (it would modify the archive|edgelog query runs SELECT, WITH)/,
    );
    // Told to, the history engine refuses it with its own words.
    await expect(
      query(a.configPath, '--engine', 'history', 'SELECT count(*) FROM ingest_ledger'),
    ).rejects.toThrow(/--engine store reads the ledger/);
  });

  it("reads from the store only the rows within the statement's own timestamp bounds", async () => {
    // 2026-11-21 12:00 to 2026-11-22 06:00: the end of a day in history and the start of one in the store.
    const from = Date.parse('2026-11-21T12:00:00Z');
    const to = Date.parse('2026-11-22T06:00:00Z');
    const sql = `SELECT log_date, count(*) AS n, min(timestamp) AS first, max(timestamp) AS last FROM origin_error_logs WHERE timestamp >= ${from} AND timestamp < ${to} GROUP BY log_date ORDER BY log_date`;
    const { historyQueries } = await import('../../src/history/history-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    let fromStore = -1;
    const queries = historyQueries({
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

  it('reads a pruned zone-day from its file', async () => {
    await prune(a.h, 'origin_error_logs', 'pull_zone_id', 101, DAYS[0]!);
    const history = ndjson(await query(a.configPath, '--format', 'ndjson', PER_DAY));
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', PER_DAY));
    expect(history.map((r) => r.log_date)).toEqual(DAYS);
    expect(stored.map((r) => r.log_date)).toEqual(DAYS.slice(1));
  });
});

describe('edgelog query --engine history: read-only and bounded', () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 60_000);
  afterAll(async () => a?.h.close());

  it('runs the first statement on the connection handed to it, and opens its own for the next', async () => {
    const { historyQueries } = await import('../../src/history/history-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    const handed = await openDuckDb({ memoryLimit: '100MB', threads: 1 });
    let opened = 0;
    const queries = historyQueries({
      root: a.root,
      store: storeQueries(a.h),
      connection: handed,
      open: (opts) => (opened++, openDuckDb(opts)),
    });
    // The settings tell the connections apart: the handed one's, then the history engine's own.
    const sql = `SELECT current_setting('threads') AS threads, (SELECT count(*) FROM origin_error_logs) > 0 AS rows`;
    const run = async () => {
      const out = memoryOutput();
      await runStoreQuery(queries, sql, { format: 'csv', timeoutMs: 0 }, out);
      return out.text();
    };
    expect(await run()).toBe('threads,rows\r\n1,1\r\n');
    expect(opened).toBe(0);
    expect(await run()).toBe('threads,rows\r\n2,1\r\n');
    expect(opened).toBe(1);
  });

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
    await expect(query(a.configPath, '--engine', 'history', sql)).rejects.toThrow(error);
  });

  it('tells where the store-only tables are', async () => {
    await expect(query(a.configPath, '--engine', 'history', 'SELECT * FROM origin_hourly')).rejects.toThrow(
      /--engine store reads the ledger/,
    );
  });

  it("says that a statement in the store's SQL needs --engine store", async () => {
    await expect(
      query(a.configPath, '--engine', 'history', 'SELECT id FROM origin_error_logs'),
    ).rejects.toThrow(/Binder Error.*DuckDB's SQL, and its tables have no id.*--engine store/s);
    await expect(
      query(a.configPath, '--engine', 'history', "SELECT unixepoch('now') FROM origin_error_logs"),
    ).rejects.toThrow(/Scalar Function.*--engine store runs the store's SQL/s);
  });

  it('stops a statement at --timeout', async () => {
    const started = Date.now();
    await expect(
      query(
        a.configPath,
        '--engine',
        'history',
        '--timeout',
        '300ms',
        'SELECT count(*) FROM range(100000000000) a',
      ),
    ).rejects.toThrow(/stopped after/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps the CSV formula guard and --csv-raw', async () => {
    const sql = `SELECT '=HYPERLINK(1)' AS f, -5 AS n`;
    expect(await query(a.configPath, '--engine', 'history', '--format', 'csv', sql)).toBe(
      "f,n\r\n'=HYPERLINK(1),-5\r\n",
    );
    expect(await query(a.configPath, '--engine', 'history', '--format', 'csv', '--csv-raw', sql)).toBe(
      'f,n\r\n=HYPERLINK(1),-5\r\n',
    );
  });

  it('keeps a byte-order mark at the start of a text value (a hostile URL may begin with one)', async () => {
    const sql = `SELECT chr(65279) || '/a' AS url, (SELECT url FROM shield_event_logs LIMIT 0) AS none`;
    const rows = ndjson(await query(a.configPath, '--engine', 'history', '--format', 'ndjson', sql));
    expect(rows).toEqual([{ url: '\ufeff/a', none: null }]);
  });

  it('keeps the table format, its limit and the values of each type', async () => {
    const text = await query(
      a.configPath,
      '--engine',
      'history',
      '--limit',
      '2',
      'SELECT pull_zone_id, time FROM origin_error_logs ORDER BY timestamp',
    );
    expect(text).toMatch(/^pull_zone_id {2}time\s*\n\s+101 {2}2026-11-20T/);
    expect(text).toMatch(/there are more/);
    const values = await query(
      a.configPath,
      '--engine',
      'history',
      '--format',
      'ndjson',
      `SELECT 9007199254740993::BIGINT AS big, 1.5::DOUBLE AS d, true AS b, NULL AS z, 12.25::DECIMAL(9,2) AS dec, DATE '2026-11-20' AS day, TIMESTAMP '2026-11-20 01:02:03.5' AS t`,
    );
    expect(values).toBe(
      '{"big":9007199254740993,"d":1.5,"b":1,"z":null,"dec":12.25,"day":"2026-11-20","t":"2026-11-20T01:02:03.500Z"}\n',
    );
  });
});

describe('edgelog query --engine history: a day published while the store is read', () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 60_000);
  afterAll(async () => a?.h.close());

  it('reads it from its file only', async () => {
    const { historyQueries } = await import('../../src/history/history-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    const store = storeQueries(a.h);
    let published = 0;
    const queries = historyQueries({
      root: a.root,
      store,
      // The compactor publishes today's file after the store's rows were read and before the files are
      // listed again.
      onStoreRows: async () => {
        published = await writeHistoryDay(store, a.root, 'origin_error_logs', 101, DAYS[2]!);
      },
    });
    const out = memoryOutput();
    await runStoreQuery(
      queries,
      'SELECT count(*) AS n FROM origin_error_logs',
      { format: 'ndjson', timeoutMs: 0 },
      out,
    );
    const stored = ndjson(
      await query(
        a.configPath,
        '--engine',
        'store',
        '--format',
        'ndjson',
        'SELECT count(*) AS n FROM origin_error_logs',
      ),
    );
    expect(published).toBeGreaterThan(0);
    expect(ndjson(out.text())).toEqual(stored);
  });
});

describe('edgelog query --engine history: a file removed after it was listed', () => {
  let a: Archive;
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 60_000);
  afterAll(async () => a?.h.close());

  it('answers from the history as it is now (listed again), each entry once', async () => {
    const { historyQueries } = await import('../../src/history/history-queries.js');
    const { runStoreQuery } = await import('../../src/query/run-store-query.js');
    const { memoryOutput } = await import('../report/fixture.js');
    const { dataFile } = await import('../../src/history/layout.js');
    const store = storeQueries(a.h);
    const file = dataFile(a.root, 'origin_error_logs', 101, DAYS[0]!);
    let removed = false;
    const queries = historyQueries({
      root: a.root,
      store,
      // After the listing and before DuckDB opens the files: the day's file goes (its rows are still in
      // the store here, as before a pruning).
      onStoreRows: () => {
        if (removed) return;
        renameSync(file, `${file}.away`);
        removed = true;
      },
    });
    const sql = 'SELECT log_date, count(*) AS n FROM origin_error_logs GROUP BY log_date ORDER BY log_date';
    const out = memoryOutput();
    try {
      await runStoreQuery(queries, sql, { format: 'ndjson', timeoutMs: 0 }, out);
    } finally {
      if (removed) renameSync(`${file}.away`, file);
    }
    const stored = ndjson(await query(a.configPath, '--engine', 'store', '--format', 'ndjson', sql));
    expect(removed).toBe(true);
    expect(ndjson(out.text())).toEqual(stored);
  });
});
