// `npx tsx bench/page-profile.ts [--store postgres] [--entries 200000] [--origin-entries 100000]`: where a
// page's milliseconds go. `edgelog sync` of the bench's days runs under `node --cpu-prof` (every thread
// profiled), and each thread's time is split by stage (cpu-stages.ts): the main thread's per page stored,
// the page threads' beside it. Three workloads: a Shield day and an origin day (pages of 1,000 entries),
// and the latency-bound one (50 zones × 3 days, pages of 100, 100 ms per request). Needs a build
// (`npm run build`): it profiles bin/edgelog.js as a user runs it.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addDays, dayOf } from '../src/time/utc-day.js';
import { stageTimes, STAGE_RULES, type CpuProfile } from './cpu-stages.js';
import { BenchDatabases, DEFAULT_ADMIN_URL } from './postgres-limit.js';
import { cleanBenchKeys, runSync, startSimulator, writeBenchConfig, type RunningSim } from './processes.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string', default: DEFAULT_ADMIN_URL },
    entries: { type: 'string', default: '200000' },
    'origin-entries': { type: 'string', default: '100000' },
    only: { type: 'string', default: 'shield,origin,latency' },
    dir: { type: 'string', default: '.bench/profile' },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = join(ROOT, String(opts.dir));
const POSTGRES = opts.store === 'postgres';
const databases = new BenchDatabases(String(opts['database-url']));
const only = new Set(String(opts.only).split(','));
const say = (line: string) => void process.stdout.write(`${line}\n`);
const yesterday = addDays(dayOf(Date.now()), -1);

interface Profiled {
  wallMs: number;
  pages: number;
  entries: number;
  main: Map<string, number>;
  threads: Map<string, number>;
}

/** `edgelog sync` under --cpu-prof; its main thread's and its other threads' stage times. */
async function profiled(name: string, sim: RunningSim, zones: number[], args: string[]): Promise<Profiled> {
  const dir = join(DIR, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'prof'), { recursive: true });
  const config = writeBenchConfig({
    dir,
    sim,
    database: join(dir, 'bench.db'),
    ...(POSTGRES ? { databaseUrl: await databases.create() } : {}),
    pullZones: name === 'origin' ? zones : [],
    shieldZones: name === 'origin' ? [] : zones,
    ...(name === 'latency' ? { concurrency: 16 } : {}),
  });
  const summary = await runSync(config, args, ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'prof')}`]);
  const main = new Map<string, number>();
  const threads = new Map<string, number>();
  for (const file of readdirSync(join(dir, 'prof'))) {
    // CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile: thread 0 is the main thread.
    const tid = file.split('.')[4];
    const into = tid === '0' ? main : threads;
    const profile = JSON.parse(readFileSync(join(dir, 'prof', file), 'utf8')) as CpuProfile;
    for (const [stage, ms] of stageTimes(profile)) into.set(stage, (into.get(stage) ?? 0) + ms);
  }
  return { wallMs: summary.durationMs, pages: summary.pages, entries: summary.entries, main, threads };
}

function report(name: string, p: Profiled, per: number, unit: string): void {
  const busy = (m: Map<string, number>) =>
    [...m].filter(([s]) => s !== 'idle').reduce((a, [, v]) => a + v, 0);
  say(
    `\n${name}: ${p.entries} entries, ${p.pages} requests, sync ${p.wallMs} ms; main thread busy ${Math.round(busy(p.main))} ms, other threads ${Math.round(busy(p.threads))} ms; per ${unit} (${per} of them):`,
  );
  const stages = [...STAGE_RULES.map(([s]) => s), 'GC', 'program (native, unattributed)', 'other', 'idle'];
  say(`  ${'stage'.padEnd(38)} ${'main ms'.padStart(9)} ${'ms/' + unit}`.padEnd(62) + ' threads ms');
  for (const s of stages) {
    const m = p.main.get(s) ?? 0;
    const t = p.threads.get(s) ?? 0;
    if (m < 0.5 && t < 0.5) continue;
    say(
      `  ${s.padEnd(38)} ${m.toFixed(0).padStart(9)} ${(m / per).toFixed(3).padStart(9)}`.padEnd(62) +
        ` ${t.toFixed(0).padStart(10)}`,
    );
  }
}

try {
  const shieldEntries = Number(opts.entries);
  const originEntries = Number(opts['origin-entries']);
  if (only.has('shield') || only.has('origin')) {
    const sim = await startSimulator({
      shieldEntries,
      originEntries,
      pageSize: 1000,
      pullZones: [101],
      shieldZones: [201],
      prerender: yesterday,
    });
    try {
      if (only.has('shield')) {
        const p = await profiled('shield', sim, [201], ['--date', yesterday, '--source', 'shield']);
        report('Shield day', p, p.entries / 1000, 'page');
      }
      if (only.has('origin')) {
        const p = await profiled('origin', sim, [101], ['--date', yesterday, '--source', 'origin']);
        report('origin day', p, p.entries / 1000, '1k rows');
      }
    } finally {
      await sim.stop();
    }
  }
  if (only.has('latency')) {
    const zones = Array.from({ length: 50 }, (_, i) => 301 + i);
    const sim = await startSimulator({
      shieldEntries: 250,
      pageSize: 100,
      latencyMs: 100,
      shieldZones: zones,
      pullZones: [101],
    });
    try {
      const p = await profiled('latency', sim, zones, [
        '--from',
        addDays(yesterday, -1),
        '--source',
        'shield',
      ]);
      report('latency-bound (50 zones × 3 days, 100 ms)', p, p.pages, 'request');
    } finally {
      await sim.stop();
    }
  }
} finally {
  await cleanBenchKeys();
  await databases.dropAll();
}
