// `npm run soak`: the long form of the fault suite. Runs each scenario with the issue's counts (or more),
// then the property tests with many more inputs, and prints a summary table; exits 1 if anything did not
// hold. Flags: --kills N (SIGKILLs of scenario 1), --seed S (replay), --only a,b (scenario names),
// --mixes N (fault mixes), --property-runs N, --verbose (every scenario's notes), --store sqlite|postgres
// (the archive's store; postgres runs the scenarios that take one, sigkill-resume, fault-mixes, history
// and two-workers-history, each scene on a database of its own through EDGELOG_TEST_DATABASE_URL, and
// says which it leaves out).
/* eslint-disable no-console -- a command-line script: its output is the point */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summaryTable, type ScenarioReport } from './lib/report.js';
import type { StoreName } from './lib/scene-database.js';
import { suiteSeed } from './lib/seeded.js';
import { diskScenario } from './scenarios/disk.js';
import { faultsScenario } from './scenarios/faults.js';
import { killsScenario } from './scenarios/kills.js';
import { longReaderScenario } from './scenarios/long-reader.js';
import { redisOutageScenario } from './scenarios/redis-outage.js';
import { signalsScenario } from './scenarios/signals.js';
import { twoWorkersScenario } from './scenarios/two-workers.js';
import { historyScenario } from './scenarios/history.js';
import { twoWorkersHistoryScenario } from './scenarios/two-workers-history.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const { values: flags } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    seed: { type: 'string' },
    only: { type: 'string' },
    mixes: { type: 'string', default: '30' },
    'property-runs': { type: 'string', default: '20000' },
    verbose: { type: 'boolean', default: false },
    store: { type: 'string', default: 'sqlite' },
  },
});

function whole(name: string, value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value))
    throw new RangeError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

const seed = flags.seed !== undefined ? whole('seed', flags.seed) : suiteSeed();
const kills = whole('kills', flags.kills);
const mixes = whole('mixes', flags.mixes);
const propertyRuns = whole('property-runs', flags['property-runs']);
const STORES: readonly StoreName[] = ['sqlite', 'postgres'];
if (!(STORES as readonly string[]).includes(flags.store)) {
  console.error(`soak: --store must be one of ${STORES.join(', ')}, got "${flags.store}"`);
  process.exit(2);
}
const store = flags.store as StoreName;

/** The property tests, run by vitest with many more inputs; one report for all of them. */
function properties(): ScenarioReport {
  const dir = join(ROOT, 'test', 'property');
  const asserts = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .reduce((n, f) => n + (readFileSync(join(dir, f), 'utf8').match(/fc\.assert\(/g) ?? []).length, 0);
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/property'],
    {
      cwd: ROOT,
      env: { ...process.env, PROPERTY_RUNS: String(propertyRuns), PROPERTY_SEED: String(seed) },
      encoding: 'utf8',
    },
  );
  return {
    scenario: 'property-and-fuzz',
    seed,
    runs: asserts * propertyRuns, // inputs tried
    kills: 0,
    faults: 0,
    secretsScanned: 0,
    problems: run.status === 0 ? [] : [`vitest exited ${run.status}:\n${run.stdout.slice(-3000)}`],
    notes: [`${asserts} properties × ${propertyRuns} inputs (the runs column counts inputs)`],
  };
}

const SCENARIOS: Record<string, () => Promise<ScenarioReport> | ScenarioReport> = {
  'sigkill-resume': () => killsScenario({ seed, kills, entriesPerDay: 20_000, pageSize: 200, store }),
  'sigint-sigterm': () => signalsScenario({ seed, rounds: 3, entriesPerDay: 20_000, pageSize: 200 }),
  'redis-with-data': () =>
    redisOutageScenario({
      seed,
      restart: 'with-data',
      entriesPerDay: 40_000,
      pageSize: 200,
      recoverMs: 60_000,
    }),
  'redis-empty': () =>
    redisOutageScenario({ seed, restart: 'empty', entriesPerDay: 40_000, pageSize: 200, recoverMs: 60_000 }),
  'disk-full': () => diskScenario({ seed, variant: 'full', entriesPerDay: 50_000, diskBytes: 8 * 2 ** 20 }),
  'disk-full-ulimit': () =>
    diskScenario({ seed, variant: 'full-ulimit', entriesPerDay: 50_000, diskBytes: 8 * 2 ** 20 }),
  'read-only': () => diskScenario({ seed, variant: 'read-only', entriesPerDay: 50_000 }),
  'long-reader': () => longReaderScenario({ seed, entriesPerDay: 100_000 }),
  'two-workers': () => twoWorkersScenario({ seed, entriesPerDay: 10_000 }),
  'fault-mixes': () => faultsScenario({ seed, mixes, store }),
  history: () => historyScenario({ seed, kills: Math.max(kills, 20), entriesPerDay: 20_000, store }),
  'two-workers-history': () => twoWorkersHistoryScenario({ seed, entriesPerDay: 10_000, store }),
  properties,
};
/** The scenarios that run on a PostgreSQL archive; the others are about SQLite's file or the store alone. */
const ON_POSTGRES = new Set(['sigkill-resume', 'fault-mixes', 'history', 'two-workers-history']);

const only = flags.only?.split(',').map((s) => s.trim());
const unknown = (only ?? []).filter((name) => !(name in SCENARIOS));
if (unknown.length > 0) {
  console.error(`soak: unknown scenario ${unknown.join(', ')} (one of ${Object.keys(SCENARIOS).join(', ')})`);
  process.exit(2);
}

const replay = `npm run soak -- --seed ${seed}${store === 'sqlite' ? '' : ` --store ${store}`}`;
console.log(`edgelog soak on ${store}, seed ${seed} (replay: ${replay})`);
if (store === 'postgres') {
  const left = Object.keys(SCENARIOS).filter(
    (name) => !ON_POSTGRES.has(name) && (!only || only.includes(name)),
  );
  if (left.length > 0) console.log(`not on PostgreSQL (run them with --store sqlite): ${left.join(', ')}`);
}
console.log('');
const reports: ScenarioReport[] = [];
const started = Date.now();
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (only && !only.includes(name)) continue;
  if (store === 'postgres' && !ON_POSTGRES.has(name)) continue;
  const t = Date.now();
  process.stdout.write(`${name}… `);
  let report: ScenarioReport;
  try {
    report = await run();
  } catch (err) {
    report = {
      scenario: name,
      seed,
      runs: 0,
      kills: 0,
      faults: 0,
      secretsScanned: 0,
      problems: [`crashed: ${String(err)}`],
      notes: [],
    };
  }
  reports.push(report);
  console.log(
    `${report.problems.length === 0 ? 'held' : 'FAILED'} in ${Math.round((Date.now() - t) / 1000)} s`,
  );
  for (const note of flags.verbose ? report.notes : report.notes.slice(-1)) console.log(`  ${note}`);
  for (const problem of report.problems.slice(0, 10)) console.log(`  ✗ ${problem}`);
  if (report.problems.length > 10) console.log(`  ✗ … ${report.problems.length - 10} more`);
}
console.log(`\n${summaryTable(reports)}`);
const total = (f: (r: ScenarioReport) => number) => reports.reduce((a, r) => a + f(r), 0);
console.log(
  `\n${reports.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s: ` +
    `${total((r) => r.kills)} kills and signals, ${total((r) => r.faults)} faults injected, ` +
    `${(total((r) => r.secretsScanned) / 2 ** 20).toFixed(0)} MiB scanned for secrets`,
);
process.exitCode = reports.every((r) => r.problems.length === 0) ? 0 : 1;
