// Ad-hoc queries on the generated archive (bench/archive.ts) moved to history, against the same SQL on the
// SQLite archive, in the same run: the 7-day `GROUP BY request_url`, a 30-day count per day and status
// code, and a one-zone one-hour filter. Warm: the median of a few runs after one that fills the caches.
// Cold: the files' pages dropped from the page cache first (`dd iflag=nocache`, which needs no root),
// one run. The history side runs both inside one process (a fresh DuckDB per query, as `edgelog query`
// opens one: its fixed start-up is measured apart with `select 1`) and as `edgelog query` from spawn.
// The store of the history side holds no entries (every day in history and pruned, hotDays 0); what the
// store part costs when it does hold rows is measured apart, in rows per second.
//
//   npx tsx bench/history-queries.ts [--rows 10000000] [--runs 3]     (build first: npm run build)
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORIGIN_SHAPE } from '../src/store/history-columns.js';
import { historyPage, pageColumns } from '../src/store/history-page.js';
import type { HistoryPage, HistoryValue } from '../src/store/history-store.js';
import { writePart } from '../src/history/part-file.js';
import { writeWatermark } from '../src/history/flush-marker.js';
import { COMPACTION_DUCKDB_OPTIONS, openDuckDb } from '../src/history/duckdb.js';
import { archiveQueries } from '../src/history/archive-queries.js';
import { createHistoryViews } from '../src/history/history-views.js';
import { dayDir } from '../src/history/layout.js';
import { DEFAULT_PARQUET_OPTIONS } from '../src/history/parquet-options.js';
import { WorkBudget } from '../src/history/work-budget.js';
import { runStoreQuery } from '../src/query/run-store-query.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import { sqliteReader } from '../src/store/sqlite/reader.js';
import { addDays, dayEndMs, dayStartMs, type Day } from '../src/time/utc-day.js';
import { ARCHIVE_DAYS, ARCHIVE_LAST_DAY, ARCHIVE_ZONES, generatedArchive } from './archive.js';
import { argOf } from './args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = join(ROOT, '.bench');
const ROWS = Number(argOf('rows', '10000000'));
const RUNS = Number(argOf('runs', '3'));
const say = (line: string) => void process.stderr.write(`${line}\n`);

const first = addDays(ARCHIVE_LAST_DAY, -(ARCHIVE_DAYS - 1));
const weekFrom = dayStartMs(addDays(ARCHIVE_LAST_DAY, -6));
const lastEnd = dayEndMs(ARCHIVE_LAST_DAY);
const hour = dayStartMs(ARCHIVE_LAST_DAY) + 13 * 3_600_000;
/** The same SQL on both engines (integers and text only, no dialect functions). */
export const HISTORY_BENCH_QUERIES = {
  '7-day GROUP BY request_url': `SELECT request_url, count(*) AS errors FROM origin_error_logs WHERE timestamp >= ${weekFrom} AND timestamp < ${lastEnd} AND status_code >= 500 GROUP BY request_url ORDER BY errors DESC, request_url LIMIT 10`,
  '30-day count per day and status': `SELECT log_date, status_code, count(*) AS n FROM origin_error_logs GROUP BY log_date, status_code ORDER BY log_date, status_code`,
  'one zone, one hour': `SELECT log_id, timestamp, request_url, status_code FROM origin_error_logs WHERE pull_zone_id = 7 AND timestamp >= ${hour} AND timestamp < ${hour + 3_600_000} ORDER BY timestamp, log_id`,
} as const;
type QueryName = keyof typeof HISTORY_BENCH_QUERIES;

/** A synchronous iterable as the async one writePart reads (better-sqlite3 reads synchronously). */
function asAsync<T>(items: Iterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      const it = items[Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  };
}

/**
 * The history of the generated archive, written exactly as a merge writes it (cached): one part per
 * zone-day through writePart (the Parquet options, verification, its batches and timestamps in its name),
 * all below the flush watermark: the store of the history side holds none of these rows. bench/console.ts
 * builds its history with it too.
 */
export async function historyOf(archivePath: string, root: string): Promise<void> {
  if (existsSync(join(root, '.complete'))) return;
  rmSync(root, { recursive: true, force: true });
  const db = new Database(archivePath, { readonly: true });
  const names = pageColumns(ORIGIN_SHAPE, (columns) => `json_array(${columns})`);
  // The generator's timestamps lie inside their day, so the key index finds a zone-day's rows.
  const read = db
    .prepare(
      `SELECT ${names} FROM origin_error_logs WHERE pull_zone_id = ? AND timestamp >= ? AND timestamp < ? ORDER BY timestamp, log_id`,
    )
    .raw(true)
    .safeIntegers(true);
  const conn = await openDuckDb(COMPACTION_DUCKDB_OPTIONS);
  const started = performance.now();
  let rows = 0;
  function* pages(zone: number, day: Day): Generator<HistoryPage> {
    let page: HistoryValue[][] = [];
    for (const row of read.iterate(zone, dayStartMs(day), dayEndMs(day)) as Iterable<HistoryValue[]>) {
      page.push(row);
      if (page.length === 5000) {
        yield historyPage(page);
        page = [];
      }
    }
    if (page.length > 0) yield historyPage(page);
  }
  try {
    for (let d = 0; d < ARCHIVE_DAYS; d++) {
      const day = addDays(first, d);
      for (let zone = 1; zone <= ARCHIVE_ZONES; zone++) {
        const file = await writePart(conn, {
          shape: ORIGIN_SHAPE,
          dir: dayDir(root, 'origin_error_logs', zone, day),
          lo: 0n,
          hi: 1n,
          pages: asAsync(pages(zone, day)),
          parquet: DEFAULT_PARQUET_OPTIONS.origin_error_logs,
          sorted: false,
          scratchDir: join(root, '.scratch'),
        });
        rows += file?.rows ?? 0;
      }
      say(
        `  history: ${d + 1}/${ARCHIVE_DAYS} days, ${rows} rows (${Math.round((performance.now() - started) / 1000)} s)`,
      );
    }
  } finally {
    conn.closeSync();
    db.close();
  }
  rmSync(join(root, '.scratch'), { recursive: true, force: true });
  writeWatermark(root, 1n);
  writeFileSync(join(root, '.complete'), '');
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  return total;
}

/** Drops a file's (or every file's under a directory) pages from the page cache. */
function dropCache(path: string): void {
  const files = statSync(path).isDirectory()
    ? readdirSync(path, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
    : [path, `${path}-wal`].filter(existsSync);
  for (const f of files) spawnSync('dd', [`if=${f}`, 'iflag=nocache', 'count=0', 'status=none']);
}

const nullOutput = { write: () => Promise.resolve() };

/** CPU time of this process (every thread: DuckDB's workers too) over the last timed or warm call. */
let lastCpuMs = 0;

async function timed(fn: () => unknown): Promise<number> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  lastCpuMs = (used.user + used.system) / 1000;
  return ms;
}

/**
 * The median of RUNS runs after one that fills the caches; lastCpuMs is then the median CPU time. On a
 * machine shared with other work the wall times swing with its load; CPU time much less, so both are
 * reported.
 */
async function warm(fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(await timed(fn));
    cpus.push(lastCpuMs);
  }
  lastCpuMs = cpus.sort((a, b) => a - b)[Math.floor(cpus.length / 2)]!;
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function cliMs(args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  const r = spawnSync(join(ROOT, 'bin', 'edgelog.js'), args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`edgelog ${args.join(' ')}: ${String(r.stderr)}`);
  return performance.now() - t;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
/** A ratio to three significant digits: the one-hour lookup's 0.0102× is not 0. */
const ratio = (a: number, b: number) => Number((a / b).toPrecision(3));

async function main(): Promise<void> {
  say(`archive of ${ROWS} origin rows (${ARCHIVE_ZONES} zones × ${ARCHIVE_DAYS} days)…`);
  const archivePath = generatedArchive(DIR, ROWS, say);
  // `-parts`: written by writePart (older caches beside it were written otherwise).
  const root = join(DIR, `history-${ROWS}-parts`);
  await historyOf(archivePath, root);
  const emptyStore = join(DIR, 'history-store-empty.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(emptyStore + suffix, { force: true });
  await openArchive(emptyStore).close();
  // Out of WAL mode: a read-only open then needs no -shm beside it.
  new Database(emptyStore).pragma('journal_mode = DELETE');
  const config = join(DIR, 'history-bench.config.json');
  writeFileSync(config, JSON.stringify({ database: { path: emptyStore }, history: { path: root } }));
  const env: NodeJS.ProcessEnv = { ...process.env, EDGELOG_CONFIG: config };
  delete env.EDGELOG_DB;

  const sqliteBytes = statSync(archivePath).size;
  const historyBytes = bytesUnder(root);
  say(
    `sizes: SQLite ${sqliteBytes} B, history ${historyBytes} B (${r1(sqliteBytes / historyBytes)}× smaller)`,
  );

  const sqlite = new Database(archivePath, { readonly: true });
  const queries = archiveQueries({ root, store: sqliteReader(emptyStore).queries });
  const onHistory = (sql: string) => runStoreQuery(queries, sql, { format: 'csv', timeoutMs: 0 }, nullOutput);
  const select1 = await warm(() => onHistory('SELECT 1'));
  say(`history engine, fixed cost per query (fresh DuckDB, no table): ${r1(select1)} ms`);

  const results: Record<string, Record<string, number>> = {};
  for (const [name, sql] of Object.entries(HISTORY_BENCH_QUERIES) as Array<[QueryName, string]>) {
    const stmt = sqlite.prepare(sql).raw(true).safeIntegers(true);
    const onSqlite = () => stmt.all();
    // Cold first (dropped caches), then warm.
    dropCache(archivePath);
    const sqliteCold = await timed(onSqlite);
    dropCache(root);
    const historyCold = await timed(() => onHistory(sql));
    const sqliteWarm = await warm(onSqlite);
    const sqliteCpu = lastCpuMs;
    const historyWarm = await warm(() => onHistory(sql));
    const historyCpu = lastCpuMs;
    const args = ['query', '--format', 'csv', sql];
    cliMs(args, env);
    const cli: number[] = [];
    for (let i = 0; i < RUNS; i++) cli.push(cliMs(args, env));
    const historyCli = cli.sort((a, b) => a - b)[Math.floor(cli.length / 2)]!;
    results[name] = {
      sqliteWarmMs: r1(sqliteWarm),
      historyWarmMs: r1(historyWarm),
      warmSpeedup: ratio(sqliteWarm, historyWarm),
      sqliteWarmCpuMs: r1(sqliteCpu),
      historyWarmCpuMs: r1(historyCpu),
      warmCpuRatio: ratio(sqliteCpu, historyCpu),
      historyCliWarmMs: r1(historyCli),
      cliSpeedup: ratio(sqliteWarm, historyCli),
      sqliteColdMs: r1(sqliteCold),
      historyColdMs: r1(historyCold),
      coldRatio: ratio(historyCold, sqliteCold),
    };
    say(
      `${name}: ${JSON.stringify(results[name])} (load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')})`,
    );
  }
  sqlite.close();

  // The store part: one day not yet in history read from a store that holds every row (hotDays null,
  // the worst case: the statement scans the table to leave out the days in history).
  const conn = await openDuckDb();
  let storeRows = { rows: 0, ms: 0 };
  try {
    await createHistoryViews(
      conn,
      {
        root: null,
        store: sqliteReader(archivePath).queries,
        scope: { from: ARCHIVE_LAST_DAY, to: ARCHIVE_LAST_DAY },
        onStoreRows: (_t, rows, ms) => void (storeRows = { rows, ms }),
      },
      ['origin_error_logs'],
      new WorkBudget(null, () => {}),
    );
  } finally {
    conn.closeSync();
  }
  const storeRate = Math.round(storeRows.rows / (storeRows.ms / 1000));
  say(
    `store part: ${storeRows.rows} rows of one day in ${r1(storeRows.ms)} ms (${storeRate} rows/s, scanning ${ROWS} rows)`,
  );
  process.stdout.write(
    `${JSON.stringify({ rows: ROWS, sqliteBytes, historyBytes, select1Ms: r1(select1), results, storeRows: { ...storeRows, rowsPerSecond: storeRate } }, null, 2)}\n`,
  );
}

// Run as a script only: importing the queries (HISTORY_BENCH_QUERIES) must not start the bench.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
