// `npx tsx bench/history-run.ts [--entries 1000000]` (build first): the peak RSS of one `edgelog run`
// process that ingests a Shield zone's days (yesterday, a day of `--entries`, and today, as its plan
// takes them with shieldLookbackDays 1) and compacts the finished day, as the memory bar puts it:
// "peak RSS of a run that ingests and compacts a 1M-entry day". The kernel's high-water mark (VmHWM)
// counts every thread of the process (page threads, DuckDB's). Beside it, the highest RSS sampled before
// the compaction began (its day's directory appears in the history) and from then on: which of the two
// the peak belongs to.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { addDays, dayOf } from '../src/time/utc-day.js';
import { cleanBenchKeys, freshPrefix, rssOf, startSimulator, writeBenchConfig } from './processes.js';

const { values: opts } = parseArgs({
  options: { entries: { type: 'string', default: '1000000' }, dir: { type: 'string', default: '.bench' } },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
const say = (line: string) => void process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const entries = Number(opts.entries);
  const dir = join(ROOT, String(opts.dir), 'history-run');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const day = addDays(dayOf(Date.now()), -1);
  const sim = await startSimulator({
    shieldEntries: entries,
    pageSize: 1000,
    shieldZones: [201],
    prerender: day,
  });
  try {
    const database = join(dir, 'run.db');
    const config = writeBenchConfig({
      dir,
      sim,
      database,
      prefix: freshPrefix(),
      pullZones: [],
      shieldZones: [201],
      forRun: true,
    });
    const c = JSON.parse(readFileSync(config, 'utf8')) as Record<string, Record<string, unknown>>;
    writeFileSync(
      config,
      JSON.stringify({
        ...c,
        history: { hotDays: null },
        schedule: { ...c.schedule, shieldLookbackDays: 1 },
      }),
    );
    const started = performance.now();
    const child = spawn(BIN, ['--config', config, 'run'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let peak = 0;
    const sampled = { beforeCompaction: 0, compacting: 0 };
    const compacting = join(dir, 'history', 'shield_event_logs', 'zone=201', `day=${day}`);
    let compacted: { entries: number } | undefined;
    for (;;) {
      await sleep(250);
      if (child.exitCode !== null) throw new Error(`edgelog run exited with ${child.exitCode}`);
      const rss = rssOf(child.pid!);
      peak = rss.peak;
      const phase = existsSync(compacting) ? 'compacting' : 'beforeCompaction';
      sampled[phase] = Math.max(sampled[phase], rss.now);
      try {
        const db = new Database(database, { readonly: true, fileMustExist: true });
        try {
          compacted = db
            .prepare(
              "SELECT entries FROM history_days WHERE source = 'shield' AND log_date = ? AND compacted_at IS NOT NULL",
            )
            .get(day) as { entries: number } | undefined;
        } finally {
          db.close();
        }
      } catch {
        // not migrated yet
      }
      if (compacted) break;
      if (performance.now() - started > 900_000) throw new Error('no compaction within 15 minutes');
    }
    const wallMs = Math.round(performance.now() - started);
    child.kill('SIGINT');
    await exited;
    const result = {
      day,
      entries: compacted.entries,
      wallMs,
      runPeakRssMb: peak,
      rssBeforeCompactionMb: sampled.beforeCompaction,
      rssCompactingMb: sampled.compacting,
    };
    say(
      `  edgelog run: ${day} ingested and compacted (${compacted.entries} entries) in ${wallMs} ms, peak RSS ${peak} MiB ` +
        `(sampled: ${sampled.beforeCompaction} MiB before the compaction began, ${sampled.compacting} MiB from then)`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await sim.stop();
    await cleanBenchKeys();
  }
}

await main();
