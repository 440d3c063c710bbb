// `npm run bench`: edgelog against the physical limits of this machine, in one run. See the README's
// Performance section for what each figure means and the targets.
//
// `npm run bench -- --store postgres [--database-url postgres://…/postgres]`: the same end-to-end and
// latency-bound runs into PostgreSQL (databases edgelog_bench_<random>, made and dropped), the limit
// being COPY of the same rows into an unindexed table, plus the latency-bound workload worked by two
// `edgelog run` processes against one. The query and start-up steps read SQLite only: skipped there.
import { cpus, totalmem } from 'node:os';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addDays, dayOf, dayRange } from '../src/time/utc-day.js';
import { generatedArchive } from './archive.js';
import { barLines, bars, type Bar } from './bars.js';
import { latencyFloorMs } from './latency-floor.js';
import { measureLimit, measureParse } from './limit.js';
import { cleanBenchKeys, startSimulator, runSync, writeBenchConfig } from './processes.js';
import { measureQueries, type QueryTimes } from './queries.js';
import { parsePage, shieldPageTexts } from './rows.js';
import { measureStartup, type StartupTimes } from './startup.js';
import { baselineClient, BenchDatabases, DEFAULT_ADMIN_URL, measureCopyLimit } from './postgres-limit.js';
import { measureWorkers, type WorkersRun } from './workers.js';
import { median } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    entries: { type: 'string', default: '1000000' },
    'origin-entries': { type: 'string', default: '200000' },
    'archive-rows': { type: 'string', default: '10000000' },
    'limit-rows': { type: 'string', default: '300000' },
    zones: { type: 'string', default: '50' },
    latency: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '16' },
    'startup-runs': { type: 'string', default: '21' },
    dir: { type: 'string', default: '.bench' },
    store: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string', default: DEFAULT_ADMIN_URL },
    'worker-rounds': { type: 'string', default: '2' },
    // PostgreSQL's worker-scaling runs: ms per request (see README "PostgreSQL" for why it differs).
    'worker-latency': { type: 'string', default: '400' },
  },
});
if (opts.store !== 'sqlite' && opts.store !== 'postgres')
  throw new Error('--store must be sqlite or postgres');
const POSTGRES = opts.store === 'postgres';
const num = (name: Exclude<keyof typeof opts, 'json' | 'store'>) => {
  const n = Number(opts[name]);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = join(ROOT, String(opts.dir));
const PAGE = 1000;
// Progress goes to stderr, so `--json` output on stdout stays one clean object.
const say = (line: string) => void process.stderr.write(`${line}\n`);

interface Result {
  store: 'sqlite' | 'postgres';
  machine: { cpus: number; memoryGiB: number; node: string };
  sizes: {
    shieldEntries: number;
    originEntries: number;
    archiveRows: number;
    zones: number;
    latencyMs: number;
    concurrency: number;
  };
  /** SQLite: rows/s stored with no index. PostgreSQL: rows/s COPY'd into an unindexed table. */
  limitRowsPerSec: number;
  parseEntriesPerSec: number;
  e2eEntriesPerSec: number;
  e2eShieldEntriesPerSec: number;
  e2eOriginEntriesPerSec: number;
  /** The Shield day with worker.pageThreads 0: fetching, decoding and storing on one thread. */
  e2eShieldMainThreadOnlyEntriesPerSec: number;
  e2eRatioToLimit: number;
  /** The worker's: `edgelog sync`'s own process (the bar). */
  peakRssMb: number;
  /** The history process's beside it (history/history-process.ts: the parts' writing, DuckDB). */
  historyPeakRssMb: number | null;
  latencyBoundRatio: number;
  latencyBound: { requests: number; wallMs: number; idealMs: number };
  /** The same requests with plain undici, nothing stored: what the machine and simulator allow. */
  latencyFloorRatio: number;
  latencyFloorMs: number;
  resyncEntriesPerSec: number;
  /** PostgreSQL: the latency-bound workload, one `edgelog run` ÷ two (best wall of each); target ≥ 1.7. */
  twoWorkersSpeedup?: number;
  /** The same from spawning the processes (their start-up included). */
  twoWorkersSpeedupFromSpawn?: number;
  workerRuns?: WorkersRun[];
  /** ms per request in the worker runs. */
  workerLatencyMs?: number;
  /** Plain undici over the worker runs' requests, `concurrency` in flight ÷ twice that: the ceiling. */
  twoWorkersFloor?: number;
  /** SQLite only (the queries and start-up read a SQLite archive). */
  queryMs?: QueryTimes;
  /** `edgelog --help` and a one-row `edgelog query`, each ÷ `node -e 0` (medians); target ≤ 2. */
  cliStartupRatio?: number;
  startup?: StartupTimes;
  /** Issue 29's bars, each with its verdict (bars.ts). */
  bars: Bar[];
}

const databases = new BenchDatabases(String(opts['database-url']));
/** A new empty PostgreSQL database's URL, or undefined for a SQLite run. */
const pgArchive = async () => (POSTGRES ? databases.create() : undefined);

async function main(): Promise<Result> {
  mkdirSync(DIR, { recursive: true });
  const shieldEntries = num('entries');
  const originEntries = num('origin-entries');
  const concurrency = num('concurrency');
  const latencyMs = num('latency');
  const zones = num('zones');

  say('1/7 write limit and 2/7 parse rate: generating pages…');
  const texts = shieldPageTexts(Math.ceil(num('limit-rows') / PAGE), PAGE);
  // Parse first, while the heap holds only the page texts (as ingestion's does), then build the rows.
  measureParse(texts.slice(0, 30)); // warm up the JIT
  const parses = [0, 1, 2].map(() => measureParse(texts));
  const parseEntriesPerSec = Math.round(median(parses));
  const rows = texts.map(parsePage);
  const limits: number[] = [];
  if (POSTGRES) {
    const client = await baselineClient((await pgArchive())!);
    try {
      await measureCopyLimit(client, rows.slice(0, 30));
      for (let i = 0; i < 3; i++) limits.push(await measureCopyLimit(client, rows));
    } finally {
      await client.end();
    }
  } else {
    await measureLimit(join(DIR, 'warmup'), rows.slice(0, 30));
    for (let i = 0; i < 3; i++) limits.push(await measureLimit(join(DIR, 'limit'), rows));
  }
  const limitRowsPerSec = Math.round(median(limits));
  say(
    `    limit ${limitRowsPerSec} rows/s (runs: ${limits.map(Math.round).join(', ')}), parse ${parseEntriesPerSec} entries/s (runs: ${parses.map(Math.round).join(', ')})`,
  );

  say(`3/7 end to end: one Shield day of ${shieldEntries} and one origin day of ${originEntries} entries…`);
  const e2eDir = join(DIR, 'e2e');
  rmSync(e2eDir, { recursive: true, force: true });
  mkdirSync(e2eDir, { recursive: true });
  const yesterday = addDays(dayOf(Date.now()), -1);
  // The simulator renders the day before timing starts and then serves it from memory, so it does not
  // take CPU from edgelog on the same two cores (the real API runs elsewhere). See replay-cache.ts.
  let sim = await startSimulator({
    shieldEntries,
    originEntries,
    pageSize: PAGE,
    pullZones: [101],
    shieldZones: [201],
    prerender: yesterday,
  });
  let config = writeBenchConfig({
    dir: e2eDir,
    sim,
    database: join(e2eDir, 'bench.db'),
    ...(POSTGRES ? { databaseUrl: (await pgArchive())! } : {}),
    pullZones: [101],
    shieldZones: [201],
  });
  const shield = await runSync(config, ['--date', yesterday, '--source', 'shield']);
  const origin = await runSync(config, ['--date', yesterday, '--source', 'origin']);
  // The same Shield day again into a fresh archive, everything on the main thread (worker.pageThreads 0).
  const mainOnly = await runSync(
    writeBenchConfig(
      {
        dir: e2eDir,
        sim,
        database: join(e2eDir, 'main-thread.db'),
        ...(POSTGRES ? { databaseUrl: (await pgArchive())! } : {}),
        pullZones: [101],
        shieldZones: [201],
        pageThreads: 0,
      },
      'main-thread.config.json',
    ),
    ['--date', yesterday, '--source', 'shield'],
  );
  const rate = (s: typeof shield) => s.entries / (s.durationMs / 1000);
  const e2eEntriesPerSec = Math.round(
    (shield.entries + origin.entries) / ((shield.durationMs + origin.durationMs) / 1000),
  );
  const peakRssMb = Math.max(shield.peakRssMb ?? 0, origin.peakRssMb ?? 0);
  const historyPeaks = [shield, origin].map((s) => s.historyPeakRssMb ?? null).filter((m) => m !== null);
  const historyPeakRssMb = historyPeaks.length > 0 ? Math.max(...historyPeaks) : null;
  say(
    `    shield ${Math.round(rate(shield))}/s (${shield.durationMs} ms, ${shield.peakRssMb} MiB, history process ${shield.historyPeakRssMb ?? '–'} MiB), origin ${Math.round(rate(origin))}/s (${origin.durationMs} ms, ${origin.peakRssMb} MiB, history ${origin.historyPeakRssMb ?? '–'} MiB); shield on the main thread only ${Math.round(rate(mainOnly))}/s (${mainOnly.peakRssMb} MiB)`,
  );

  say('5/7 re-sync of the same days…');
  const reShield = await runSync(config, ['--date', yesterday, '--source', 'shield']);
  const reOrigin = await runSync(config, ['--date', yesterday, '--source', 'origin']);
  if (reShield.newEntries + reOrigin.newEntries !== 0) throw new Error('re-sync stored new entries');
  const resyncEntriesPerSec = Math.round(
    (reShield.entries + reOrigin.entries) / ((reShield.durationMs + reOrigin.durationMs) / 1000),
  );
  await sim.stop();

  say(
    `4/7 latency-bound: ${zones} Shield zones × 3 days, ${latencyMs} ms per request, concurrency ${concurrency}…`,
  );
  const latDir = join(DIR, 'latency');
  rmSync(latDir, { recursive: true, force: true });
  mkdirSync(latDir, { recursive: true });
  const shieldZones = Array.from({ length: zones }, (_, i) => 301 + i);
  // Small pages (250 entries a day, 100 a page: three requests per full day) so that waiting, not
  // parsing and storing, is what the wall time measures.
  sim = await startSimulator({ shieldEntries: 250, pageSize: 100, latencyMs, shieldZones, pullZones: [101] });
  // Twice as many connections as days in flight, for edgelog and the floor alike (docs/CONFIGURATION.md,
  // api.connections): undici hands a finished request's socket to the next one only a turn or two of the
  // event loop later, so with one connection per day in flight a day's next page waited for a socket while
  // the worker stored another day's page (1.45-1.55 against 1.31-1.34 with twice as many, 2026-11-29;
  // the floor is the same either way: 2,730-2,851 ms at 16, 2,724-2,770 at 32).
  const connections = 2 * concurrency;
  config = writeBenchConfig({
    dir: latDir,
    sim,
    database: join(latDir, 'bench.db'),
    ...(POSTGRES ? { databaseUrl: (await pgArchive())! } : {}),
    pullZones: [],
    shieldZones,
    concurrency,
    connections,
  });
  const lat = await runSync(config, ['--from', addDays(yesterday, -1), '--source', 'shield']);
  const floor = await latencyFloorMs(
    sim,
    shieldZones,
    dayRange(addDays(yesterday, -1), addDays(yesterday, 1)),
    concurrency,
    connections,
  );
  const workerRuns: WorkersRun[] = [];
  let twoWorkersFloor: number | undefined;
  if (POSTGRES) {
    const rounds = num('worker-rounds');
    const workerLatencyMs = num('worker-latency');
    if (workerLatencyMs !== latencyMs) {
      await sim.stop();
      sim = await startSimulator({
        shieldEntries: 250,
        pageSize: 100,
        latencyMs: workerLatencyMs,
        shieldZones,
        pullZones: [101],
      });
    }
    // What the simulator and this machine allow a second worker: the same requests with plain undici at
    // twice the requests in flight. Where this is far below 2, no number of workers can show scaling.
    const days = dayRange(addDays(yesterday, -1), addDays(yesterday, 1));
    const floorOne = await latencyFloorMs(sim, shieldZones, days, concurrency);
    const floorTwo = await latencyFloorMs(sim, shieldZones, days, 2 * concurrency);
    twoWorkersFloor = Number((floorOne.wallMs / floorTwo.wallMs).toFixed(3));
    say(
      `    ${workerLatencyMs} ms per request: plain undici ${Math.round(floorOne.wallMs)} ms at ${concurrency} in flight, ${Math.round(floorTwo.wallMs)} ms at ${2 * concurrency} (${twoWorkersFloor}×)`,
    );
    say(`    the same workload with one and with two \`edgelog run\` processes, ${rounds} rounds…`);
    for (let r = 0; r < rounds; r++) {
      for (const workers of [1, 2]) {
        const run = await measureWorkers({
          workers,
          dir: latDir,
          sim,
          databaseUrl: (await pgArchive())!,
          shieldZones,
          concurrency,
          zoneDays: zones * 3,
          today: dayOf(Date.now()),
        });
        workerRuns.push(run);
        say(
          `    ${workers} worker(s): ${run.wallMs} ms once connected, ${run.fromSpawnMs} ms from spawn, ${run.pastDayRows} rows before today, machine ${Math.round(run.machineBusy * 100)}% busy`,
        );
      }
    }
    if (new Set(workerRuns.map((w) => w.pastDayRows)).size !== 1) {
      throw new Error('the worker runs archived different rows for the same days');
    }
  }
  await sim.stop();
  const bestOf = (n: number, f: (w: WorkersRun) => number) =>
    Math.min(...workerRuns.filter((w) => w.workers === n).map(f));
  const speedup = (f: (w: WorkersRun) => number) => Number((bestOf(1, f) / bestOf(2, f)).toFixed(3));
  const idealMs = (lat.pages * latencyMs) / concurrency;
  const latencyBoundRatio = Number((lat.durationMs / idealMs).toFixed(3));
  const latencyFloorRatio = Number((floor.wallMs / ((floor.requests * latencyMs) / concurrency)).toFixed(3));
  say(
    `    ${lat.pages} requests in ${lat.durationMs} ms, ideal ${Math.round(idealMs)} ms; plain undici: ${Math.round(floor.wallMs)} ms`,
  );

  let sqliteOnly: Pick<Result, 'queryMs' | 'cliStartupRatio' | 'startup'> = {};
  if (POSTGRES) {
    say('6/7 and 7/7 (queries and start-up on a SQLite archive): skipped with --store postgres');
  } else {
    say(`6/7 queries on an archive of ${num('archive-rows')} rows…`);
    const archivePath = generatedArchive(DIR, num('archive-rows'), say);
    const queryMs = await measureQueries(archivePath);

    const runs = num('startup-runs');
    say(`7/7 start-up: edgelog --help and a one-row query against node -e 0, ${runs} runs each…`);
    const startup = await measureStartup(join(ROOT, 'bin', 'edgelog.js'), join(DIR, 'startup'), runs);
    say(
      `    node -e 0 ${startup.nodeMs} ms, --help ${startup.helpMs} ms (${startup.helpRatio}×), query ${startup.queryMs} ms (${startup.queryRatio}×)`,
    );
    say(
      `    query --engine store ${startup.storeQueryMs} ms vs node + better-sqlite3 ${startup.sqliteFloorMs} ms (${startup.storeQueryRatio}×); query on history ${startup.historyQueryMs} ms vs node + DuckDB select 1 ${startup.duckdbFloorMs} ms (${startup.historyQueryRatio}×)`,
    );
    sqliteOnly = { queryMs, cliStartupRatio: startup.cliStartupRatio, startup };
  }

  const result: Omit<Result, 'bars'> = {
    store: POSTGRES ? 'postgres' : 'sqlite',
    machine: { cpus: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    sizes: { shieldEntries, originEntries, archiveRows: num('archive-rows'), zones, latencyMs, concurrency },
    limitRowsPerSec,
    parseEntriesPerSec,
    e2eEntriesPerSec,
    e2eShieldEntriesPerSec: Math.round(rate(shield)),
    e2eOriginEntriesPerSec: Math.round(rate(origin)),
    e2eShieldMainThreadOnlyEntriesPerSec: Math.round(rate(mainOnly)),
    e2eRatioToLimit: Number((e2eEntriesPerSec / limitRowsPerSec).toFixed(3)),
    peakRssMb,
    historyPeakRssMb,
    latencyBoundRatio,
    latencyBound: { requests: lat.pages, wallMs: lat.durationMs, idealMs: Math.round(idealMs) },
    latencyFloorRatio,
    latencyFloorMs: Math.round(floor.wallMs),
    resyncEntriesPerSec,
    ...(POSTGRES
      ? {
          twoWorkersSpeedup: speedup((w) => w.wallMs),
          twoWorkersSpeedupFromSpawn: speedup((w) => w.fromSpawnMs),
          workerRuns,
          workerLatencyMs: num('worker-latency'),
          twoWorkersFloor: twoWorkersFloor!,
        }
      : {}),
    ...sqliteOnly,
  };
  return { ...result, bars: bars(result) };
}

function table(r: Result): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines: Array<[string, string, string]> = [
    [
      r.store === 'postgres'
        ? 'limit: rows/s COPY into an unindexed table'
        : 'limit: rows/s stored, no index',
      n(r.limitRowsPerSec),
      '',
    ],
    ['parse: entries/s in memory', n(r.parseEntriesPerSec), ''],
    ['end to end: entries/s (CPU-bound)', n(r.e2eEntriesPerSec), '≥ 100,000'],
    ['  Shield day / origin day', `${n(r.e2eShieldEntriesPerSec)} / ${n(r.e2eOriginEntriesPerSec)}`, ''],
    ['  Shield day, all on the main thread', n(r.e2eShieldMainThreadOnlyEntriesPerSec), ''],
    ['end to end ÷ limit', r.e2eRatioToLimit.toFixed(3), '≥ 0.6'],
    ['peak RSS of `edgelog sync`, MiB', String(r.peakRssMb), '≤ 180'],
    ['  of its history process, MiB', String(r.historyPeakRssMb ?? '–'), ''],
    ['latency-bound: wall ÷ ideal', r.latencyBoundRatio.toFixed(3), ''],
    ['  same requests, plain undici, no storing', r.latencyFloorRatio.toFixed(3), ''],
    ['  wall ÷ plain undici', (r.latencyBound.wallMs / r.latencyFloorMs).toFixed(3), '≤ 1.15'],
    ['re-sync: entries/s', n(r.resyncEntriesPerSec), `≥ ${n(r.e2eEntriesPerSec)}`],
  ];
  if (r.twoWorkersSpeedup !== undefined && r.workerRuns) {
    const walls = (k: number) =>
      r
        .workerRuns!.filter((w) => w.workers === k)
        .map((w) => `${w.wallMs} (${w.fromSpawnMs}), ${Math.round(w.machineBusy * 100)}% busy`);
    lines.push(
      [
        `latency-bound (${r.workerLatencyMs} ms): one \`edgelog run\` ÷ two`,
        r.twoWorkersSpeedup.toFixed(2),
        '≥ 1.8',
      ],
      ['  ceiling: plain undici, 1× ÷ 2× in flight', r.twoWorkersFloor!.toFixed(2), ''],
      ['  the same from spawn, start-up included', r.twoWorkersSpeedupFromSpawn!.toFixed(2), ''],
      ['  one worker, ms (from spawn)', walls(1).join(', '), ''],
      ['  two workers, ms (from spawn)', walls(2).join(', '), ''],
    );
  }
  if (r.queryMs && r.startup && r.cliStartupRatio !== undefined) {
    lines.push(
      ['query: top error codes, zone-day (ms)', String(r.queryMs.topErrorCodesZoneDay), '≤ 50'],
      ['query: hourly histogram, 7 days (ms)', String(r.queryMs.hourlyHistogram7d), '≤ 50'],
      ['query: spike rule evaluation (ms)', String(r.queryMs.spikeEvaluation), '≤ 10'],
      ['start-up ÷ node -e 0 (worse of the two)', r.cliStartupRatio.toFixed(2), '≤ 2'],
      [
        '  --help / query "select 1" / node -e 0 (ms)',
        `${r.startup.helpMs} / ${r.startup.queryMs} / ${r.startup.nodeMs}`,
        '',
      ],
      ['query --engine store ÷ node + better-sqlite3', r.startup.storeQueryRatio.toFixed(2), ''],
      ['query on history ÷ node + DuckDB select 1', r.startup.historyQueryRatio.toFixed(2), '≤ 2'],
      [
        '  store / sqlite floor / history / duckdb floor (ms)',
        `${r.startup.storeQueryMs} / ${r.startup.sqliteFloorMs} / ${r.startup.historyQueryMs} / ${r.startup.duckdbFloorMs}`,
        '',
      ],
    );
  }
  const w = [Math.max(...lines.map((l) => l[0].length)), Math.max(...lines.map((l) => l[1].length))];
  const head =
    `edgelog bench${r.store === 'postgres' ? ' (PostgreSQL)' : ''} — ${r.machine.cpus} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; ` +
    `${n(r.sizes.shieldEntries)} + ${n(r.sizes.originEntries)} entries, ${n(r.sizes.archiveRows)}-row archive`;
  return [
    head,
    ...lines.map(([a, b, c]) => `${a.padEnd(w[0]!)}  ${b.padStart(w[1]!)}  ${c}`.trimEnd()),
    '',
    "issue 29's bars:",
    ...barLines(r.bars),
  ].join('\n');
}

const result = await main().finally(async () => {
  await cleanBenchKeys();
  await databases.dropAll();
});
// The bars on stderr too, so that a --json run shows at once what falls short.
if (opts.json) say(["issue 29's bars:", ...barLines(result.bars)].join('\n'));
process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${table(result)}\n`);
