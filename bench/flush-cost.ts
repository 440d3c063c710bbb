// Issue 29's write path alone: what one history flush costs. A SQLite store holding one Shield day and one
// origin day of simulator entries (stored a page per write batch, as the worker stores them, all above
// the flush watermark) is built once and kept (.bench/flush-cost/); each run flushes it into a fresh
// history root through the real code path (flushHistory → writePart, with the history process's DuckDB
// settings and page size) in a child process of its own, and reports its wall, its CPU (user + sys, every
// thread: DuckDB's too), its peak RSS and the time of each step of writing a part, per table. The parts
// are read back: each must hold the day's entries, each key once.
//
//   npx tsx bench/flush-cost.ts [--entries 1000000] [--origin <entries>] [--runs 1] [--json]
//   (or `npm run bench:flush -- --entries 200000`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { flushHistory } from '../src/history/flush.js';
import { writeWatermark } from '../src/history/flush-marker.js';
import { COMPACTION_DUCKDB_OPTIONS, openDuckDb } from '../src/history/duckdb.js';
import { compactionPageRows, SCRATCH_DIR } from '../src/history/compact-day.js';
import { DEFAULT_PARQUET_OPTIONS } from '../src/history/parquet-options.js';
import type { PartStep } from '../src/history/part-file.js';
import { readFiles } from '../src/history/part-file.js';
import { OriginBodyDecoder, decodeShieldPage } from '../src/ingest/decode-page.js';
import { DataSet } from '../src/simulator/data.js';
import { resolveOptions } from '../src/simulator/options.js';
import type { HistoryTable } from '../src/store/history-columns.js';
import { openStore } from '../src/store/open-store.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import type { Day } from '../src/time/utc-day.js';

const { values: opts } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    /** The origin day's entries. @defaultValue --entries */
    origin: { type: 'string' },
    runs: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    dir: { type: 'string', default: '.bench' },
    /** Internal: the flush itself, in the child process. */
    child: { type: 'string' },
  },
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DAY = '2026-11-20' as Day;
const AT = Date.parse('2026-11-23T00:00:00Z');
const SHIELD_ZONE = 201;
const ORIGIN_ZONE = 102;
const PAGE = 1000;
/** The watermark the store's rows start at: every write batch is at or above it (batches count from 1). */
const WATERMARK = 1n;

const say = (line: string) => void process.stderr.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const r0 = (x: number) => Math.round(x);

/** Stores the two days, a page of PAGE entries per write batch, as the worker's page transactions do. */
function buildStore(path: string, shield: number, origin: number): void {
  const tmp = `${path}.tmp`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  const data = new DataSet(
    resolveOptions({
      entriesPerDay: (source) => (source === 'shield' ? shield : origin),
      pullZones: [ORIGIN_ZONE],
      shieldZones: [SHIELD_ZONE],
      now: () => AT,
    }),
  );
  const archive = openArchive(tmp, { cacheMiB: 64 });
  const started = performance.now();
  let stored = 0;
  const page = (store: () => void) => {
    archive.db.transaction(store)();
    stored += PAGE;
    if (stored % 100_000 === 0)
      say(`  stored ${stored} rows (${r0((performance.now() - started) / 1000)} s)`);
  };
  let texts: string[] = [];
  const shieldPage = () => {
    const text = `{"logs":[${texts.join(',')}],"hasMoreData":false,"continuationToken":null,"startToken":null}`;
    const { batch } = decodeShieldPage(text);
    page(() => archive.shield.store(SHIELD_ZONE, DAY, batch, archive.batches.next()));
    archive.shield.terms.committed();
    texts = [];
  };
  for (const entry of data.entryJsons('shield', SHIELD_ZONE, DAY, AT)) {
    texts.push(entry);
    if (texts.length === PAGE) shieldPage();
  }
  if (texts.length > 0) shieldPage();
  const decoder = new OriginBodyDecoder(PAGE);
  const originPage = (batch: ReturnType<OriginBodyDecoder['end']>['batch']) => {
    page(() => archive.origin.store(ORIGIN_ZONE, DAY, batch, archive.batches.next()));
    archive.origin.terms.committed();
  };
  // One answer holds the whole day, decoded as it arrives (as the worker reads it).
  for (const b of decoder.push('{"logs":[')) originPage(b);
  let sep = '';
  for (const entry of data.entryJsons('origin', ORIGIN_ZONE, DAY, AT)) {
    for (const b of decoder.push(sep + entry)) originPage(b);
    sep = ',';
  }
  for (const b of decoder.push(']}')) originPage(b);
  const last = decoder.end().batch;
  if (last.logId.length > 0) originPage(last);
  void archive.close();
  renameSync(tmp, path);
  say(`  built ${path} in ${r0((performance.now() - started) / 1000)} s`);
}

interface RunFigures {
  wallMs: number;
  cpuMs: { user: number; sys: number; total: number };
  peakRssMb: number;
  rows: number;
  parts: number;
  bytes: number;
  /** Milliseconds per step of writing a part, per table. */
  steps: Partial<Record<HistoryTable, Partial<Record<PartStep, number>>>>;
}

/** The child: one flush of the store into a fresh history root; prints its figures as JSON. */
async function child(dbPath: string, root: string): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  writeWatermark(root, WATERMARK);
  const store = await openStore({ path: dbPath }, { concurrency: 1, cacheMiB: 8 });
  const duck = await openDuckDb({ ...COMPACTION_DUCKDB_OPTIONS, tempDirectory: join(root, SCRATCH_DIR) });
  const steps: RunFigures['steps'] = {};
  let current: Partial<Record<PartStep, number>> = {};
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await flushHistory({
    store,
    root,
    duck,
    owner: 'flush-cost',
    now: Date.now,
    leaseMs: 600_000,
    parquet: DEFAULT_PARQUET_OPTIONS,
    pageRows: compactionPageRows('sqlite'),
    scratchDir: join(root, SCRATCH_DIR),
    onStep: (step, ms) => void (current[step] = (current[step] ?? 0) + ms),
    hooks: {
      beforePublish: (table) => {
        steps[table] = current;
        current = {};
      },
    },
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  // Read back: every row once.
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== SCRATCH_DIR) walk(join(dir, e.name));
      else if (e.name.endsWith('.parquet')) files.push(join(dir, e.name));
    }
  };
  walk(root);
  const shield = files.filter((f) => f.includes('shield_event_logs'));
  const origin = files.filter((f) => f.includes('origin_error_logs'));
  for (const [label, list, key] of [
    ['shield', shield, 'shield_zone_id'],
    ['origin', origin, 'pull_zone_id'],
  ] as const) {
    const reader = await duck.runAndReadAll(
      `SELECT count(*), count(DISTINCT (${key}, "timestamp", log_id)) FROM ${readFiles(list)}`,
    );
    const [[n, distinct]] = reader.getRows() as [[bigint, bigint]];
    if (n !== distinct) throw new Error(`${label}: ${n} rows but ${distinct} keys`);
  }
  duck.closeSync();
  await store.close();
  const { statSync } = await import('node:fs');
  const figures: RunFigures = {
    wallMs: r0(wallMs),
    cpuMs: {
      user: r0(cpu.user / 1000),
      sys: r0(cpu.system / 1000),
      total: r0((cpu.user + cpu.system) / 1000),
    },
    peakRssMb,
    rows: result.rows,
    parts: result.parts,
    bytes: files.reduce((sum, f) => sum + statSync(f).size, 0),
    steps: Object.fromEntries(
      Object.entries(steps).map(([t, s]) => [
        t,
        Object.fromEntries(Object.entries(s).map(([k, v]) => [k, r0(v)])),
      ]),
    ),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function main(): void {
  const shield = Number(opts.entries);
  const origin = Number(opts.origin ?? opts.entries);
  for (const [name, n] of [
    ['--entries', shield],
    ['--origin', origin],
  ] as const)
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`${name} takes a positive integer: ${n}`);
  const base = join(ROOT, String(opts.dir), 'flush-cost');
  mkdirSync(base, { recursive: true });
  const dbPath = join(base, `store-${shield}-${origin}.db`);
  if (!existsSync(dbPath)) {
    say(`flush cost: building a store of ${shield} Shield and ${origin} origin entries, load ${load()}`);
    buildStore(dbPath, shield, origin);
  }
  const runs: RunFigures[] = [];
  for (let i = 0; i < Number(opts.runs); i++) {
    const before = load();
    const r = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', dbPath, '--dir', String(opts.dir)],
      { cwd: ROOT, maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (r.status !== 0) throw new Error(`the flush's process exited with ${r.status}`);
    const figures = JSON.parse(String(r.stdout).trim().split('\n').at(-1)!) as RunFigures;
    const expected = shield + origin;
    if (figures.rows !== expected) throw new Error(`flushed ${figures.rows} rows, expected ${expected}`);
    runs.push(figures);
    say(
      `  run ${i + 1}: wall ${figures.wallMs} ms, CPU ${figures.cpuMs.total} ms (user ${figures.cpuMs.user}, sys ${figures.cpuMs.sys}), peak ${figures.peakRssMb} MiB, ${figures.rows} rows in ${figures.parts} parts (${figures.bytes} bytes); load before ${before}`,
    );
    for (const [table, steps] of Object.entries(figures.steps))
      say(
        `    ${table}: ${Object.entries(steps)
          .map(([s, ms]) => `${s} ${ms} ms`)
          .join(', ')}`,
      );
  }
  const out = { shield, origin, pageRows: compactionPageRows('sqlite'), load: load(), runs };
  if (opts.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

if (opts.child !== undefined) await child(opts.child, join(ROOT, String(opts.dir), 'flush-cost', 'history'));
else main();
