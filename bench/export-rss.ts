// Issue 27's export bar alone: the peak RSS of `edgelog export --format parquet` of a big Shield day in
// state A (synced end to end, so in flushed parts, plus a tail of rows above the flush watermark) and in
// state B (`edgelog compact`: one file). State A is built once and kept with --keep, so a change to the
// export can be measured again without syncing (--reuse); B is made on a copy, leaving A as it was. Each
// export is read back: its rows must be the day's entries plus the tail, each log_id once.
//
//   npx tsx bench/export-rss.ts [--entries 1000000] [--tail 49999] [--runs 1] [--reuse] [--only A]
//   (build first: it runs bin/edgelog.js)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDuckDb } from '../src/history/duckdb.js';
import { sqlStringLiteral } from '../src/history/statement-tables.js';
import { addDays, dayOf, type Day } from '../src/time/utc-day.js';
import { cleanBenchKeys, runSync, startSimulator, writeBenchConfig } from './processes.js';
import { addShieldTail, TAIL_ROWS } from './shield-tail.js';
import { timedRun } from './timed-run.js';

const { values: opts } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    tail: { type: 'string', default: String(TAIL_ROWS) },
    runs: { type: 'string', default: '1' },
    dir: { type: 'string', default: '.bench' },
    /** Export the state A an earlier run built with the same --entries and --tail, if there is one. */
    reuse: { type: 'boolean', default: false },
    /** `A`: state A only (no compaction). */
    only: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
const say = (line: string) => void process.stderr.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface State {
  day: Day;
  entries: number;
  tail: number;
}

/** Syncs a Shield day of `entries` into `dir` (parts every 50,000 rows and after the day), then the tail. */
async function buildStateA(dir: string, entries: number, tail: number): Promise<State> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const day = addDays(dayOf(Date.now()), -1);
  const sim = await startSimulator({
    shieldEntries: entries,
    originEntries: 100,
    pageSize: 1000,
    pullZones: [101],
    shieldZones: [201],
    prerender: day,
  });
  try {
    const config = writeBenchConfig({
      dir,
      sim,
      database: join(dir, 'bench.db'),
      pullZones: [101],
      shieldZones: [201],
    });
    const base = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      config,
      JSON.stringify({
        ...base,
        history: { path: join(dir, 'history'), hotDays: 0 },
        schedule: { finalizeDelay: '0s' },
      }),
    );
    const s = await runSync(config, ['--date', day, '--source', 'shield']);
    say(`  synced shield: ${s.entries} entries in ${s.durationMs} ms (peak ${s.peakRssMb} MiB)`);
    addShieldTail(join(dir, 'bench.db'), day, tail);
  } finally {
    await sim.stop();
    await cleanBenchKeys();
  }
  const state = { day, entries, tail };
  writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
  return state;
}

/** `edgelog export` of the Shield day to Parquet, `runs` times: the largest peak RSS, and the rows read back. */
async function exportDay(label: string, dir: string, state: State, runs: number) {
  const file = join(dir, 'export.parquet');
  const figures = [];
  for (let i = 0; i < runs; i++) {
    rmSync(file, { force: true });
    const args = ['--config', join(dir, 'edgelog.config.json'), 'export', '--source', 'shield'];
    const day = ['--from', state.day, '--to', state.day];
    figures.push(timedRun(BIN, [...args, ...day, '--format', 'parquet', '--output', file]));
  }
  const conn = await openDuckDb();
  try {
    const reader = await conn.runAndReadAll(
      `SELECT count(*), count(DISTINCT log_id) FROM read_parquet(${sqlStringLiteral(file)})`,
    );
    const [[rows, distinct]] = reader.getRows() as [[bigint, bigint]];
    const expected = state.entries + state.tail;
    const exact = Number(rows) === expected && distinct === rows;
    const peak = Math.max(...figures.map((f) => f.rssMb));
    say(
      `  ${label}: export peak ${figures.map((f) => f.rssMb).join(', ')} MiB in ${figures.map((f) => Math.round(f.ms)).join(', ')} ms; ${rows} rows, ${distinct} distinct log_ids (expected ${expected}), load ${load()}`,
    );
    if (!exact) throw new Error(`${label}: the export does not hold each of the ${expected} rows once`);
    return { peakRssMb: peak, rows: Number(rows) };
  } finally {
    conn.closeSync();
    rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  const entries = Number(opts.entries);
  const tail = Number(opts.tail);
  const runs = Number(opts.runs);
  const base = join(ROOT, String(opts.dir), 'export-rss');
  const dirA = join(base, `A-${entries}-${tail}`);
  const saved = join(dirA, 'state.json');
  let state: State;
  if (opts.reuse && existsSync(saved)) {
    state = JSON.parse(readFileSync(saved, 'utf8')) as State;
    say(`export RSS: state A of ${state.entries} entries and a tail of ${state.tail} (${state.day}), kept`);
  } else {
    say(`export RSS: building state A, ${entries} Shield entries and a tail of ${tail}, load ${load()}`);
    state = await buildStateA(dirA, entries, tail);
  }
  const a = await exportDay('A', dirA, state, runs);
  let b: Awaited<ReturnType<typeof exportDay>> | undefined;
  if (opts.only !== 'A') {
    // B on a copy: A stays as it was for the next --reuse.
    const dirB = join(base, 'B');
    rmSync(dirB, { recursive: true, force: true });
    cpSync(dirA, dirB, { recursive: true });
    const config = join(dirB, 'edgelog.config.json');
    const escaped = (p: string) => JSON.stringify(p).slice(1, -1);
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll(escaped(dirA), escaped(dirB)));
    const c = timedRun(BIN, ['--config', config, 'compact', '--json']);
    say(`  compact: ${Math.round(c.ms)} ms (peak ${c.rssMb} MiB)`);
    b = await exportDay('B', dirB, state, runs);
    rmSync(dirB, { recursive: true, force: true });
  }
  process.stdout.write(
    `${JSON.stringify({ ...state, load: load(), A: a, B: b, bar: '≤ 300 MiB', ok: Math.max(a.peakRssMb, b?.peakRssMb ?? 0) <= 300 }, null, 2)}\n`,
  );
}

await main();
