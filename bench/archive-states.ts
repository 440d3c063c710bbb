// `npm run bench:archive` (builds, then runs this): issue 27's bars, "one archive, one answer", on simulator
// data. A Shield day and an origin day of 1,000,000 entries each are synced end to end as a user runs it
// (the worker flushes parts every 50,000 stored rows and after the day), then 49,999 more rows are stored
// above the flush watermark (the largest tail a reader can meet between two flushes). That is state A:
// nothing merged, the store still holding every row. `edgelog compact` (flush, merge, prune: hotDays 0)
// makes state B. In both states the same statements run in process (archiveQueries, a fresh DuckDB per
// statement as `edgelog query` opens one) and as `edgelog query` (median wall, peak RSS), and must give
// the same rows; a one-zone one-hour lookup is held against a bare node that loads DuckDB and runs
// `select 1`. Then a Parquet export of the Shield day (peak RSS, A and B), and the compaction of the
// 1,000,000-row origin day on PostgreSQL against SQLite (synced with no history, then `compact`).
//
//   npx tsx bench/archive-states.ts [--entries 1000000] [--runs 3] [--no-postgres]   (build first)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { archiveQueries } from '../src/history/archive-queries.js';
import { runStoreQuery } from '../src/query/run-store-query.js';
import { sqliteReader } from '../src/store/sqlite/reader.js';
import { addDays, dayOf, dayStartMs, type Day } from '../src/time/utc-day.js';
import { cleanBenchKeys, runSync, startSimulator, writeBenchConfig } from './processes.js';
import { DUCKDB_FLOOR } from './startup.js';
import { addShieldTail, TAIL_ROWS as TAIL } from './shield-tail.js';
import { median } from './stats.js';
import { timedRun } from './timed-run.js';

const { values: opts } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string', default: '.bench' },
    'no-postgres': { type: 'boolean', default: false },
    /** `compaction`: only PostgreSQL's compaction against SQLite's (no states A and B). */
    only: { type: 'string' },
    'postgres-url': {
      type: 'string',
      default: process.env.EDGELOG_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
const RUNS = Number(opts.runs);
const say = (line: string) => void process.stderr.write(`${line}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const ratio = (a: number, b: number) => Number((a / b).toPrecision(3));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The median wall and the largest peak RSS of RUNS runs, after one that fills the caches. */
function commandFigures(cmd: string, args: string[], env?: NodeJS.ProcessEnv) {
  const first = timedRun(cmd, args, env);
  const runs = Array.from({ length: RUNS }, () => timedRun(cmd, args, env));
  return {
    ms: r1(median(runs.map((r) => r.ms))),
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    stdout: first.stdout,
  };
}

const nullOutput = { write: () => Promise.resolve() };

/** The median in-process wall of RUNS runs after a warm-up, and the statement's rows (as CSV). */
async function inProcess(dbPath: string, root: string, sql: string) {
  const queries = archiveQueries({ root, store: sqliteReader(dbPath).queries });
  let csv = '';
  const capture = { write: (s: string) => ((csv += s), Promise.resolve()) };
  await runStoreQuery(queries, sql, { format: 'csv', timeoutMs: 0 }, capture);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await runStoreQuery(queries, sql, { format: 'csv', timeoutMs: 0 }, nullOutput);
    times.push(performance.now() - t);
  }
  return { ms: r1(median(times)), csv };
}

function statements(day: Day) {
  const start = dayStartMs(day);
  const hour = start + 13 * 3_600_000;
  const weekFrom = dayStartMs(addDays(day, -6));
  return {
    'count(*) of the Shield day': `SELECT count(*) AS n FROM shield_event_logs WHERE log_date = '${day}'`,
    'count(*) of the origin day': `SELECT count(*) AS n FROM origin_error_logs WHERE log_date = '${day}'`,
    '7-day GROUP BY request_url': `SELECT request_url, count(*) AS errors FROM origin_error_logs WHERE timestamp >= ${weekFrom} AND timestamp < ${start + 86_400_000} AND status_code >= 500 GROUP BY request_url ORDER BY errors DESC, request_url LIMIT 10`,
    'one zone, one hour': `SELECT log_id, timestamp, request_url, status_code FROM origin_error_logs WHERE pull_zone_id = 101 AND timestamp >= ${hour} AND timestamp < ${hour + 3_600_000} ORDER BY timestamp, log_id LIMIT 100`,
  } as const;
}
type Name = keyof ReturnType<typeof statements>;

type StateFigures = Record<
  Name,
  { inProcessMs: number; commandMs: number; commandRssMb: number; rows: string }
>;

async function measureState(label: string, dbPath: string, root: string, config: string, day: Day) {
  const out = {} as StateFigures;
  for (const [name, sql] of Object.entries(statements(day)) as Array<[Name, string]>) {
    const p = await inProcess(dbPath, root, sql);
    const c = commandFigures(BIN, ['--config', config, 'query', '--format', 'csv', sql]);
    if (c.stdout !== p.csv) throw new Error(`${label}, ${name}: the command and the process disagree`);
    out[name] = { inProcessMs: p.ms, commandMs: c.ms, commandRssMb: c.rssMb, rows: p.csv };
    say(
      `  ${label}, ${name}: in process ${p.ms} ms, command ${c.ms} ms (peak ${c.rssMb} MiB), load ${load()}`,
    );
  }
  const file = join(root, '..', `export-${label}.parquet`);
  rmSync(file, { force: true });
  const exp = timedRun(BIN, [
    '--config',
    config,
    'export',
    '--source',
    'shield',
    '--from',
    day,
    '--to',
    day,
    '--format',
    'parquet',
    '--output',
    file,
  ]);
  rmSync(file, { force: true });
  say(`  ${label}, Parquet export of the Shield day: ${r1(exp.ms)} ms, peak ${exp.rssMb} MiB`);
  return { statements: out, exportMs: r1(exp.ms), exportRssMb: exp.rssMb };
}

/** Syncs the origin day with no history, then times `compact` (flush and merge of every row). */
async function compaction(label: string, dir: string, base: Record<string, unknown>, day: Day) {
  const history = join(dir, `history-${label}`);
  const config = join(dir, `compaction-${label}.json`);
  writeFileSync(config, JSON.stringify({ ...base, history: { path: null } }));
  const synced = await runSync(config, ['--date', day, '--source', 'origin']);
  say(
    `  synced origin with no history on ${label}: ${synced.entries} entries in ${synced.durationMs} ms (peak ${synced.peakRssMb} MiB)`,
  );
  writeFileSync(config, JSON.stringify({ ...base, history: { path: history, hotDays: 0 } }));
  const run = timedRun(BIN, ['--config', config, 'compact', '--json']);
  const summary = JSON.parse(run.stdout) as { entries: number };
  say(
    `  compaction on ${label}: ${summary.entries} entries in ${r1(run.ms)} ms (peak ${run.rssMb} MiB), load ${load()}`,
  );
  return {
    entries: summary.entries,
    ms: r1(run.ms),
    rssMb: run.rssMb,
    syncNoHistory: { ms: synced.durationMs, peakRssMb: synced.peakRssMb },
  };
}

async function main(): Promise<void> {
  const entries = Number(opts.entries);
  const dir = join(ROOT, String(opts.dir), 'archive-states');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const day = addDays(dayOf(Date.now()), -1);
  say(`archive states: a Shield day and an origin day of ${entries} entries each (${day}), load ${load()}`);
  const sim = await startSimulator({
    shieldEntries: entries,
    originEntries: entries,
    pageSize: 1000,
    pullZones: [101],
    shieldZones: [201],
    prerender: day,
  });
  let pgAdmin: pg.Client | undefined;
  const pgName = `edgelog_bench_${process.pid}`;
  try {
    const dbPath = join(dir, 'bench.db');
    const root = join(dir, 'history');
    const config = writeBenchConfig({ dir, sim, database: dbPath, pullZones: [101], shieldZones: [201] });
    const base = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      config,
      JSON.stringify({ ...base, history: { path: root, hotDays: 0 }, schedule: { finalizeDelay: '0s' } }),
    );
    const bars: Record<string, { value: number; bar: string; ok: boolean }> = {};
    const bar = (name: string, value: number, limit: number, unit = '×') =>
      (bars[name] = { value, bar: `≤ ${limit}${unit}`, ok: value <= limit });
    let a: Awaited<ReturnType<typeof measureState>> | undefined;
    let b: Awaited<ReturnType<typeof measureState>> | undefined;
    let compactMs: number | undefined;
    let floorMs: number | undefined;
    if (opts.only !== 'compaction') {
      for (const source of ['shield', 'origin']) {
        const s = await runSync(config, ['--date', day, '--source', source]);
        say(`  synced ${source}: ${s.entries} entries in ${s.durationMs} ms (peak ${s.peakRssMb} MiB)`);
      }
      addShieldTail(dbPath, day);
      a = await measureState('A', dbPath, root, config, day);
      const c = timedRun(BIN, ['--config', config, 'compact', '--json']);
      say(`  compact: ${r1(c.ms)} ms (peak ${c.rssMb} MiB)`);
      compactMs = r1(c.ms);
      b = await measureState('B', dbPath, root, config, day);

      floorMs = commandFigures(process.execPath, ['-e', DUCKDB_FLOOR]).ms;
      const floor = { ms: floorMs };
      for (const name of [
        'count(*) of the Shield day',
        'count(*) of the origin day',
        '7-day GROUP BY request_url',
      ] as const) {
        if (a.statements[name].rows !== b.statements[name].rows)
          throw new Error(`${name}: A and B answer differently`);
        bar(
          `${name}: A ÷ B as a command`,
          ratio(a.statements[name].commandMs, b.statements[name].commandMs),
          2,
        );
        bar(
          `${name}: A ÷ B in process`,
          ratio(a.statements[name].inProcessMs, b.statements[name].inProcessMs),
          4,
        );
      }
      const lookup = 'one zone, one hour';
      if (a.statements[lookup].rows !== b.statements[lookup].rows)
        throw new Error(`${lookup}: A and B answer differently`);
      bar(`${lookup}, hot day (A): in process`, a.statements[lookup].inProcessMs, 100, ' ms');
      bar(`${lookup}, history day (B): in process`, b.statements[lookup].inProcessMs, 100, ' ms');
      bar(
        `${lookup}, hot day (A): command ÷ DuckDB floor`,
        ratio(a.statements[lookup].commandMs, floor.ms),
        1.5,
      );
      bar(
        `${lookup}, history day (B): command ÷ DuckDB floor`,
        ratio(b.statements[lookup].commandMs, floor.ms),
        1.5,
      );
      const rss = Math.max(...[a, b].flatMap((s) => Object.values(s.statements).map((x) => x.commandRssMb)));
      bar('peak RSS of edgelog query', rss, 300, ' MiB');
      bar('Parquet export of the Shield day, peak RSS', Math.max(a.exportRssMb, b.exportRssMb), 300, ' MiB');
    }

    let compactions: Record<string, unknown> | undefined;
    if (!opts['no-postgres']) {
      pgAdmin = new pg.Client({ connectionString: opts['postgres-url'] });
      await pgAdmin.connect();
      await pgAdmin.query(`CREATE DATABASE ${pgName}`);
      const pgUrl = new URL(opts['postgres-url']);
      pgUrl.pathname = `/${pgName}`;
      const sqlite = await compaction(
        'sqlite',
        dir,
        { ...base, database: { path: join(dir, 'compaction.db') } },
        day,
      );
      const postgres = await compaction(
        'postgres',
        dir,
        { ...base, database: { path: join(dir, 'unused.db'), url: pgUrl.href } },
        day,
      );
      if (sqlite.entries !== postgres.entries)
        throw new Error('the two compactions counted different entries');
      bar('compaction of the origin day: PostgreSQL ÷ SQLite', ratio(postgres.ms, sqlite.ms), 1.5);
      compactions = { sqlite, postgres };
    }
    for (const [name, b] of Object.entries(bars))
      say(`${b.ok ? 'ok  ' : 'MISS'} ${name}: ${b.value} (bar ${b.bar})`);
    const strip = (s: StateFigures) =>
      Object.fromEntries(Object.entries(s).map(([k, { rows: _rows, ...v }]) => [k, v]));
    process.stdout.write(
      `${JSON.stringify(
        {
          day,
          entries,
          tail: TAIL,
          load: load(),
          duckdbFloorMs: floorMs,
          A: a && { ...a, statements: strip(a.statements) },
          B: b && { ...b, statements: strip(b.statements) },
          compactMs,
          compactions,
          bars,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await sim.stop();
    await cleanBenchKeys();
    if (pgAdmin) {
      await pgAdmin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await pgAdmin.end();
    }
  }
}

await main();
