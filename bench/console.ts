// `npm run bench:console` (builds, then runs this): issue 31's "Fast" bars for `edgelog serve`. The archive
// is the history bench's (bench/history-queries.ts: 20 zones × 30 days of origin rows written as merged
// parts) plus one hot day after it, synced from the simulator as archive-states.ts syncs (one zone, the
// worker's flushes, nothing merged). The built CLI serves it; an undici client times the API requests each
// page makes (src/console/api-routes.ts, assets/console/console.js), 20 loads after one warm-up, and then
// 10 users loop over the same requests, each one at a time, while the server's peak RSS is read from
// /proc/<pid>/status (VmHWM). Each answer is checked against the counts the archive was built with, so a
// fast empty answer cannot pass.
//
//   npm run bench:console -- [--history-rows 10000000] [--hot-entries 1000000] [--loads 20]
//                            [--users 10] [--load-seconds 60] [--json]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { addDays, dayEndMs, dayStartMs } from '../src/time/utc-day.js';
import { ARCHIVE_DAYS, ARCHIVE_LAST_DAY, ARCHIVE_ZONES, generatedArchive } from './archive.js';
import { barLines, type Bar } from './bars.js';
import { BAR_SIZES, latencyBar, rssBar, type LoadName } from './console-bars.js';
import { historyOf } from './history-queries.js';
import { cleanBenchKeys, rssOf, runSync, startSimulator, stopChild, writeBenchConfig } from './processes.js';

const { values: opts } = parseArgs({
  options: {
    'history-rows': { type: 'string', default: String(BAR_SIZES.historyRows) },
    'hot-entries': { type: 'string', default: String(BAR_SIZES.hotEntries) },
    loads: { type: 'string', default: '20' },
    users: { type: 'string', default: '10' },
    'load-seconds': { type: 'string', default: '60' },
    json: { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
const DIR = join(ROOT, '.bench');
const say = (line: string) => void process.stderr.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function wholeNumber(name: string, min: number): number {
  const n = Number(opts[name as keyof typeof opts]);
  if (!Number.isInteger(n) || n < min) throw new RangeError(`--${name}: a whole number ≥ ${min}`);
  return n;
}
const HISTORY_ROWS = wholeNumber('history-rows', ARCHIVE_ZONES * ARCHIVE_DAYS);
const HOT_ENTRIES = wholeNumber('hot-entries', 1);
const LOADS = wholeNumber('loads', 1);
const USERS = wholeNumber('users', 1);
const LOAD_SECONDS = wholeNumber('load-seconds', 1);

/** The hot day follows the history's last day; its zone is one of the history's, so a dashboard spans both. */
const HOT_DAY = addDays(ARCHIVE_LAST_DAY, 1);
const HOT_ZONE = 7;
/** The explorer's 7 days: six of the history and the hot day. */
const WEEK = { from: dayStartMs(addDays(HOT_DAY, -6)), to: dayEndMs(HOT_DAY) };

/** Each page's requests, as its script makes them (the overview's two at once). */
function pageRequests(): Record<LoadName, string[]> {
  const week = { from: String(WEEK.from), to: String(WEEK.to) };
  return {
    overview: ['/api/v1/overview', '/api/v1/ledger'],
    explorer: [`/api/v1/logs?${new URLSearchParams({ source: 'origin', ...week }).toString()}`],
    facets: [`/api/v1/facets?${new URLSearchParams({ source: 'origin', ...week }).toString()}`],
    dashboard: [
      `/api/v1/dashboard?${new URLSearchParams({ source: 'origin', zone: String(HOT_ZONE), ...week }).toString()}`,
    ],
  };
}

/** Runs `edgelog serve` on a free loopback port; resolves once it prints its address. */
async function startServe(config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(BIN, ['--config', config, '--log-level', 'warn', 'serve', '--listen', '127.0.0.1:0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`edgelog serve exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const url = /https?:\/\/\S+/.exec(line)?.[0];
  if (url === undefined) throw new Error(`edgelog serve said: ${line}`);
  return { child, url };
}

interface Client {
  /** GETs a path; the parsed JSON answer (throws on any status but 200). */
  get(path: string): Promise<unknown>;
  close(): Promise<void>;
}

function client(url: string): Client {
  const pool = new Pool(new URL(url).origin, { connections: USERS + 2 });
  return {
    async get(path) {
      const res = await pool.request({ path, method: 'GET', headers: { accept: 'application/json' } });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as unknown;
    },
    close: () => pool.close(),
  };
}

/** Sum of a list's `count`s. */
const total = (rows: unknown): number =>
  (rows as Array<{ count: number | string }>).reduce((n, r) => n + Number(r.count), 0);

/**
 * Throws unless the answers hold the archive's rows: the explorer's histogram every origin row of the
 * week, its page 100 lines; the dashboard every row of the hot zone's week; facets and the ledger some.
 */
function checkAnswers(name: LoadName, answers: unknown[], expected: { week: number; zoneWeek: number }) {
  const fail = (what: string) => {
    throw new Error(`${name}: ${what}`);
  };
  if (name === 'explorer') {
    const a = answers[0] as { histogram: { bars: unknown[] }; lines: unknown[] };
    const n = total(a.histogram.bars);
    if (n !== expected.week) fail(`the histogram counts ${n} rows, the archive holds ${expected.week}`);
    if (a.lines.length !== 100) fail(`${a.lines.length} lines on the first page, not 100`);
  } else if (name === 'dashboard') {
    const n = total((answers[0] as { hourly: unknown[] }).hourly);
    if (n !== expected.zoneWeek) fail(`hourly counts ${n} rows, zone ${HOT_ZONE} holds ${expected.zoneWeek}`);
  } else if (name === 'facets') {
    const codes = (answers[0] as { facets: Record<string, unknown[]> }).facets.code ?? [];
    if (codes.length === 0) fail('no error codes among the facets');
  } else {
    const ledger = answers[1] as { rows: unknown[] };
    if (ledger.rows.length === 0) fail('the ledger calendar is empty');
  }
}

/** One page load: its requests at once, as the page makes them; the wall time in ms. */
async function timedLoad(c: Client, paths: string[]): Promise<{ ms: number; answers: unknown[] }> {
  const t = performance.now();
  const answers = await Promise.all(paths.map((p) => c.get(p)));
  return { ms: performance.now() - t, answers };
}

/** USERS users, each looping over every page's requests one at a time, for LOAD_SECONDS. */
async function usersLoop(c: Client, requests: Record<LoadName, string[]>, pid: number) {
  const paths = Object.values(requests).flat();
  const end = performance.now() + LOAD_SECONDS * 1000;
  let done = 0;
  const errors: string[] = [];
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, rssOf(pid).now)), 250);
  const user = async (offset: number) => {
    // Users start at different pages, so the server meets a mix of requests at once.
    for (let i = offset; performance.now() < end; i++) {
      try {
        await c.get(paths[i % paths.length]!);
        done++;
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: USERS }, (_, u) => user(u)));
  } finally {
    clearInterval(sampler);
  }
  return { requests: done, errors, sampledPeakMib: sampledPeak };
}

async function main(): Promise<void> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  const phase = (name: string, since: number) => (phases[name] = Math.round(performance.now() - since));
  say(
    `console bench: history of ${HISTORY_ROWS} origin rows (${ARCHIVE_ZONES} zones × ${ARCHIVE_DAYS} days to ${ARCHIVE_LAST_DAY}), ` +
      `hot day ${HOT_DAY} of ${HOT_ENTRIES} entries in zone ${HOT_ZONE}, load ${load()}`,
  );
  let t = performance.now();
  const archivePath = generatedArchive(DIR, HISTORY_ROWS, say);
  const parts = join(DIR, `history-${HISTORY_ROWS}-parts`);
  await historyOf(archivePath, parts);
  phase('archiveAndHistoryMs', t);

  // The run's own history: the cached parts hard-linked (Parquet parts are never rewritten in place; the
  // sync adds its parts and watermark markers beside them, so the cache is left as it was).
  const dir = join(DIR, 'console');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const history = join(dir, 'history');
  // The cache's real path: `cp -a` copies a symlink as a symlink, and the run would then write its hot
  // day's parts into the cache itself (a worktree that links .bench's cache from elsewhere).
  const cp = spawnSync('cp', ['-al', realpathSync(parts), history]);
  if (cp.status !== 0) throw new Error(`cp -al: ${String(cp.stderr)}`);

  t = performance.now();
  const sim = await startSimulator({
    originEntries: HOT_ENTRIES,
    pageSize: 1000,
    pullZones: [HOT_ZONE],
    shieldZones: [],
    prerender: HOT_DAY,
  });
  let serve: ChildProcess | undefined;
  let c: Client | undefined;
  try {
    const config = writeBenchConfig({
      dir,
      sim,
      database: join(dir, 'console.db'),
      pullZones: [HOT_ZONE],
      shieldZones: [],
    });
    const base = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      config,
      JSON.stringify({ ...base, history: { path: history }, schedule: { finalizeDelay: '0s' } }),
    );
    const synced = await runSync(config, ['--date', HOT_DAY, '--source', 'origin']);
    if (synced.entries !== HOT_ENTRIES)
      throw new Error(`the hot day synced ${synced.entries} entries, not ${HOT_ENTRIES}`);
    phase('hotDaySyncMs', t);
    say(
      `  hot day synced: ${synced.entries} entries in ${synced.durationMs} ms (peak ${synced.peakRssMb} MiB)`,
    );

    t = performance.now();
    const served = await startServe(config);
    serve = served.child;
    phase('serveStartMs', t);
    say(`  edgelog serve at ${served.url} (pid ${serve.pid}), started in ${phases.serveStartMs} ms`);
    c = client(served.url);
    const requests = pageRequests();
    const perZoneDay = Math.ceil(HISTORY_ROWS / (ARCHIVE_ZONES * ARCHIVE_DAYS));
    const expected = {
      week: 6 * ARCHIVE_ZONES * perZoneDay + HOT_ENTRIES,
      zoneWeek: 6 * perZoneDay + HOT_ENTRIES,
    };

    t = performance.now();
    const times: Record<LoadName, number[]> = { overview: [], explorer: [], facets: [], dashboard: [] };
    const first: Partial<Record<LoadName, number>> = {};
    const names = Object.keys(requests) as LoadName[];
    // One warm-up round (its times reported apart), then LOADS rounds, the pages in turn.
    for (let round = 0; round <= LOADS; round++) {
      for (const name of names) {
        const r = await timedLoad(c, requests[name]);
        if (round === 0) {
          checkAnswers(name, r.answers, expected);
          first[name] = Math.round(r.ms);
        } else times[name].push(r.ms);
      }
    }
    phase('loadsMs', t);
    const idle = rssOf(serve.pid!);
    say(
      `  ${LOADS} loads of each page done; server RSS ${idle.now} MiB (peak so far ${idle.peak} MiB), load ${load()}`,
    );

    t = performance.now();
    const loop = await usersLoop(c, requests, serve.pid!);
    const peak = rssOf(serve.pid!).peak;
    phase('usersMs', t);
    say(
      `  ${USERS} users for ${LOAD_SECONDS} s: ${loop.requests} requests, ${loop.errors.length} failed, ` +
        `sampled RSS up to ${loop.sampledPeakMib} MiB, VmHWM ${peak} MiB, load ${load()}`,
    );
    for (const e of loop.errors.slice(0, 3)) say(`    failed: ${e}`);

    const bars: Array<Bar & { value: number }> = [
      ...names.map((n) => latencyBar(n, times[n])),
      rssBar(peak, {
        users: USERS,
        seconds: LOAD_SECONDS,
        requests: loop.requests,
        errors: loop.errors.length,
      }),
    ];
    const atBarSize = HISTORY_ROWS >= BAR_SIZES.historyRows && HOT_ENTRIES >= BAR_SIZES.hotEntries;
    phases.totalMs = Math.round(performance.now() - started);
    const result = {
      historyRows: HISTORY_ROWS,
      hotEntries: HOT_ENTRIES,
      atBarSize,
      hotDay: HOT_DAY,
      firstLoadMs: first,
      loadsMs: Object.fromEntries(names.map((n) => [n, times[n].map((x) => Math.round(x * 10) / 10)])),
      users: { count: USERS, seconds: LOAD_SECONDS, requests: loop.requests, failed: loop.errors.length },
      rssMib: { afterLoads: idle.now, sampledUnderUsers: loop.sampledPeakMib, peak },
      phasesMs: phases,
      load: load(),
      bars,
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const size = atBarSize
        ? ''
        : ` (the bars are set at ${BAR_SIZES.historyRows} + ${BAR_SIZES.hotEntries}: these verdicts are not the issue's)`;
      process.stdout.write(
        `edgelog serve over ${HISTORY_ROWS} history rows + a hot day of ${HOT_ENTRIES} entries${size}\n` +
          `${barLines(bars).join('\n')}\n` +
          `first (cold) loads, ms: ${JSON.stringify(first)}; took ${Math.round(phases.totalMs / 1000)} s (${JSON.stringify(phases)})\n`,
      );
    }
  } finally {
    await c?.close();
    if (serve) await stopChild(serve);
    await sim.stop();
    await cleanBenchKeys();
  }
}

await main();
