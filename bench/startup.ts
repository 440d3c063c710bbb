// Start-up of the CLI, each command beside the bare floor it cannot beat, same machine, same run:
// - `edgelog --help` beside `node -e 0`;
// - a one-row `edgelog query --engine store` beside node opening the archive with better-sqlite3 and
//   reading one row;
// - a one-row `edgelog query` answered from the history beside node loading DuckDB and running `select 1`.
// The bin is executed as a user runs it, through its shebang (so with its node flags). Rounds interleave
// the commands, so that a busy moment of the machine falls on all of them alike; the median of each is
// reported. `queryMs`/`queryRatio` (a one-row query with no history, against node -e 0) stay as before.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HISTORY_COLUMNS } from '../src/store/history-columns.js';
import { openDuckDb } from '../src/history/duckdb.js';
import { dataFile, dayDir, tempFile } from '../src/history/layout.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import { median } from './stats.js';

export interface StartupTimes {
  runs: number;
  /** Median wall time of each, in ms. */
  nodeMs: number;
  helpMs: number;
  queryMs: number;
  helpRatio: number;
  queryRatio: number;
  /** The larger of the two ratios: the figure with the target (≤ 2). */
  cliStartupRatio: number;
  /** One-row `query --engine store`, and node + better-sqlite3 opening the archive and reading a row. */
  storeQueryMs: number;
  sqliteFloorMs: number;
  storeQueryRatio: number;
  /** One-row `query` answered from the history, and node + DuckDB's `select 1`. */
  historyQueryMs: number;
  duckdbFloorMs: number;
  historyQueryRatio: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function wallMs(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

/** One origin entry of 2026-11-24 in zone 101, as the history's one file. */
async function oneDayOfHistory(root: string): Promise<void> {
  const { columns } = HISTORY_COLUMNS.origin_error_logs;
  const value = (name: string, type: string) =>
    ({ pull_zone_id: '101', log_id: "'a'", log_date: "'2026-11-24'", timestamp: '1763942400000' })[name] ??
    `NULL::${type}`;
  const dir = dayDir(root, 'origin_error_logs', 101, '2026-11-24');
  mkdirSync(dir, { recursive: true });
  const temp = tempFile(dir, 'bench');
  const conn = await openDuckDb();
  try {
    const select = columns.map(([n, t]) => `${value(n, t)}::${t} AS "${n}"`).join(', ');
    await conn.run(`COPY (SELECT ${select}) TO '${temp}' (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    conn.closeSync();
  }
  renameSync(temp, dataFile(root, 'origin_error_logs', 101, '2026-11-24'));
}

/** `node -e` of this: a bare node that loads DuckDB and runs `select 1` (a DuckDB-answered query's floor). */
export const DUCKDB_FLOOR = `import(${JSON.stringify(join(ROOT, 'node_modules/@duckdb/node-api/lib/index.js'))}).then(async (m) => { const i = await m.DuckDBInstance.create(':memory:'); const c = await i.connect(); await c.run('select 1'); c.closeSync(); });`;

/** Runs each command `runs` times (after one warm-up round that fills the file cache). */
export async function measureStartup(bin: string, dir: string, runs = 21): Promise<StartupTimes> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'small.db');
  const archive = openArchive(database); // migrated, empty
  void archive.close();
  const withHistory = join(dir, 'with-history');
  mkdirSync(withHistory);
  const historyDb = join(withHistory, 'small.db');
  void openArchive(historyDb).close();
  await oneDayOfHistory(join(withHistory, 'history')); // history.path's default: beside the archive
  // Run in `dir`, where there is no configuration file: the archive comes from EDGELOG_DB.
  const env: NodeJS.ProcessEnv = { ...process.env, EDGELOG_DB: database };
  delete env.EDGELOG_CONFIG;
  const historyEnv: NodeJS.ProcessEnv = { ...env, EDGELOG_DB: historyDb };
  const sqliteFloor = `const D = require(${JSON.stringify(join(ROOT, 'node_modules/better-sqlite3'))}); const db = new D(${JSON.stringify(database)}, { readonly: true }); db.prepare('select count(*) from origin_error_logs').get(); db.close();`;
  const duckdbFloor = DUCKDB_FLOOR;
  const one = 'select count(*) from origin_error_logs';
  const commands: Array<[keyof typeof samples, string, string[], NodeJS.ProcessEnv]> = [
    ['node', process.execPath, ['-e', '0'], env],
    ['help', bin, ['--help'], env],
    ['query', bin, ['query', 'select 1'], env],
    ['sqliteFloor', process.execPath, ['-e', sqliteFloor], env],
    ['storeQuery', bin, ['query', '--engine', 'store', one], env],
    ['duckdbFloor', process.execPath, ['-e', duckdbFloor], env],
    ['historyQuery', bin, ['query', one], historyEnv],
  ];
  const samples = {
    node: [] as number[],
    help: [] as number[],
    query: [] as number[],
    sqliteFloor: [] as number[],
    storeQuery: [] as number[],
    duckdbFloor: [] as number[],
    historyQuery: [] as number[],
  };
  for (let round = -1; round < runs; round++) {
    for (const [name, cmd, args, e] of commands) {
      const ms = wallMs(cmd, args, dir, e);
      if (round >= 0) samples[name].push(ms);
    }
  }
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<
    keyof typeof samples,
    number
  >;
  const ratio = (x: number, floor = m.node) => Number((x / floor).toFixed(2));
  return {
    runs,
    nodeMs: round1(m.node),
    helpMs: round1(m.help),
    queryMs: round1(m.query),
    helpRatio: ratio(m.help),
    queryRatio: ratio(m.query),
    cliStartupRatio: Math.max(ratio(m.help), ratio(m.query)),
    storeQueryMs: round1(m.storeQuery),
    sqliteFloorMs: round1(m.sqliteFloor),
    storeQueryRatio: ratio(m.storeQuery, m.sqliteFloor),
    historyQueryMs: round1(m.historyQuery),
    duckdbFloorMs: round1(m.duckdbFloor),
    historyQueryRatio: ratio(m.historyQuery, m.duckdbFloor),
  };
}

// `tsx bench/startup.ts [runs]`: this part of the bench alone (the CLI must be built: npm run build).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 11);
  const t = await measureStartup(join(ROOT, 'bin', 'edgelog.js'), join(ROOT, '.bench', 'startup'), runs);
  process.stdout.write(`${JSON.stringify(t, null, 2)}\n`);
}
