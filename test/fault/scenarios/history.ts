// The history under faults (issue 20): `edgelog compact` (which compacts, publishes and prunes) SIGKILLed
// at random instants and started again; the history directory full (a small tmpfs) and read-only (that
// tmpfs remounted read-only). What must hold, after every kill and fault and at the end:
// - each zone-day's rows are whole: the file's where a data.parquet is published (read by DuckDB here),
//   else the store's, equal the simulator's oracle exactly; and a pruned row is always in its file;
// - history_days never claims a day whose file is missing or differs from what it recorded;
// - no temporary file is ever matched by the readers' glob (only data.parquet is).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { entryShape, QUARANTINE_SHAPE } from '../../../src/store/history-columns.js';
import { checksumOf } from '../../../src/history/day-file.js';
import { openDuckDb } from '../../../src/history/duckdb.js';
import { dataFile, entryTable, isTempFile, tableGlob } from '../../../src/history/layout.js';
import { lastUnfetchedDay } from '../../../src/history/plan.js';
import type { SimSource } from '../../../src/simulator/index.js';
import type { ArchiveReader } from '../../support/archive-reader.js';
import { pastDays } from '../lib/clock.js';
import type { ScenarioReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import { rngFor } from '../lib/seeded.js';
import { sleep, within } from '../lib/wait.js';

export interface HistoryScenarioOptions {
  seed: number;
  kills: number;
  entriesPerDay: number;
}

interface DayRef {
  source: SimSource;
  zone: number;
  day: string;
}

const RUN_BOUND_MS = 120_000;

export async function historyScenario(opts: HistoryScenarioOptions): Promise<ScenarioReport> {
  const rng = rngFor(opts.seed, 'history');
  const scene = await Scene.open({
    name: 'history',
    seed: opts.seed,
    clock: 'fixed',
    sim: { pullZones: [101], shieldZones: [201], entriesPerDay: opts.entriesPerDay, pageSize: 500 },
  });
  const report: ScenarioReport = {
    scenario: 'history',
    seed: opts.seed,
    runs: 0,
    kills: 0,
    faults: 0,
    secretsScanned: 0,
    problems: [],
    notes: [],
  };
  const duck = await openDuckDb();
  const mount = mountPoint();
  try {
    // Three origin days, and the two Shield days the API still serves (the simulator's clock is yesterday).
    const days = pastDays(scene.now(), 3);
    const refs: DayRef[] = [
      ...days.map((day) => ({ source: 'origin' as const, zone: 101, day })),
      ...days.slice(1).map((day) => ({ source: 'shield' as const, zone: 201, day })),
    ];
    const base = {
      pullZones: [101],
      shieldZones: [201],
      log: { level: 'warn' as const },
      worker: { lease: '4s' },
      schedule: { originLookbackDays: 1 },
    };
    const root = join(scene.dir, 'history');
    scene.writeConfig({ ...base, history: { path: root, hotDays: 0 } });
    for (const [source, from] of [
      ['origin', days[0]!],
      ['shield', days[1]!],
    ] as const) {
      const sync = await scene.run(['sync', '--source', source, '--from', from, '--to', days[2]!]);
      report.runs++;
      if (sync.code !== 0) throw new Error(`the sync that fills the archive failed: ${sync.stderr}`);
    }
    const check = async (when: string) => {
      const found = await problems(duck, await scene.reader(), scene, root, refs);
      await scene.closeReaders();
      report.problems.push(...found.map((p) => `${when}: ${p}`));
    };

    // The archive as the sync left it: each kill lands in a fresh compact of it (a compact that finished
    // leaves nothing for the next kill to interrupt).
    const pristine = join(scene.dir, 'pristine.db');
    copyFileSync(scene.dbPath, pristine);
    const reset = () => {
      for (const suffix of ['-wal', '-shm']) rmSync(scene.dbPath + suffix, { force: true });
      copyFileSync(pristine, scene.dbPath);
      rmSync(root, { recursive: true, force: true });
    };
    const t0 = Date.now();
    const probe = await scene.run(['compact']);
    const fullMs = Date.now() - t0;
    report.runs++;
    report.notes.push(
      `an uninterrupted compact took ${fullMs} ms: ${probe.stdout.trim().replace(/\n/g, ' / ')}`,
    );
    await check('after an uninterrupted compact');
    reset();

    // SIGKILL at a random instant of a compact, a check, a compact that completes the work, a check.
    let landed = 0;
    const phases = { compacting: 0, pruning: 0 };
    for (let i = 0; i < opts.kills; i++) {
      const run = scene.start(['compact']);
      report.runs++;
      let exited = false;
      void run.done.then(() => (exited = true));
      await sleep(rng.int(200, Math.max(300, fullMs)));
      if (!exited) {
        const before = await dayStates(scene);
        run.child.kill('SIGKILL');
        report.kills++;
        landed++;
        if (before.compacted < refs.length) phases.compacting++;
        else phases.pruning++;
      }
      await within(run.done, RUN_BOUND_MS);
      await check(`after kill ${i + 1}`);
      const again = await scene.run(['compact']);
      report.runs++;
      if (again.code !== 0) report.problems.push(`the compact after kill ${i + 1} failed: ${again.stderr}`);
      await check(`after the compact that followed kill ${i + 1}`);
      reset();
    }
    report.notes.push(
      `${landed} of ${opts.kills} SIGKILLs landed in a running compact (${phases.compacting} while days were ` +
        `being compacted and published, ${phases.pruning} once all were, while pruning)`,
    );

    // The history directory full: a tmpfs too small for the files.
    if (mount) {
      const fullRoot = join(mount, 'history');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]);
      scene.writeConfig({ ...base, history: { path: fullRoot, hotDays: 0 } });
      const full = await scene.run(['compact']);
      report.runs++;
      report.faults++;
      if (full.code === 0) report.problems.push(`compact on a full disk exited 0: ${full.stdout}`);
      else if (!/history\.path/.test(full.stderr) || !/space/i.test(full.stderr))
        report.problems.push(
          `compact on a full disk did not name history.path and the cause: ${full.stderr}`,
        );
      report.notes.push(`full disk: ${firstLine(full.stderr)}`);
      await check('after the full disk');
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      const ro = await scene.run(['compact']);
      report.runs++;
      report.faults++;
      if (ro.code === 0) report.problems.push(`compact on a read-only history exited 0: ${ro.stdout}`);
      else if (!/history\.path/.test(ro.stderr) || !/read-only/i.test(ro.stderr))
        report.problems.push(`compact on a read-only history did not say so: ${ro.stderr}`);
      report.notes.push(`read-only: ${firstLine(ro.stderr)}`);
      execFileSync('umount', ['-l', mount]);
      scene.writeConfig({ ...base, history: { path: root, hotDays: 0 } });
    } else report.notes.push('no tmpfs could be mounted: the full-disk and read-only parts did not run');

    const last = await scene.run(['compact']);
    report.runs++;
    if (last.code !== 0) report.problems.push(`the last compact failed: ${last.stderr}`);
    await check('at the end');
    const final = await dayStates(scene);
    if (final.compacted !== refs.length)
      report.problems.push(`${final.compacted} of ${refs.length} days compacted at the end`);
    // With the real clock (the CLI's): hotDays 0 keeps today's rows; a day leaves the store once no
    // longer fetched (origin: originLookbackDays 1; Shield: the API's window).
    const cold = refs.filter((r) => r.day <= lastUnfetchedDay(r.source, Date.now(), 1)).length;
    if (final.pruned !== cold)
      report.problems.push(`${final.pruned} days pruned at the end, ${cold} expected`);
    const temps = countTemps(root);
    report.notes.push(
      `${temps} temporary files left by killed writers (never matched by ${tableGlob('…', 'origin_error_logs')})`,
    );
    const scan = await scene.scanSecrets();
    report.secretsScanned = scan.scanned;
    report.problems.push(...scan.findings);
    return report;
  } finally {
    duck.closeSync();
    if (mount) {
      try {
        execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
      } catch {
        // not mounted
      }
      rmSync(mount, { recursive: true, force: true });
    }
    await scene.close();
  }
}

/** A folder to mount the small tmpfs on, when this process may mount one (root). */
function mountPoint(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-history-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    execFileSync('umount', [dir]);
    mkdirSync(dir, { recursive: true });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

async function dayStates(scene: Scene): Promise<{ compacted: number; pruned: number }> {
  const reader = await scene.reader();
  try {
    const rows = await reader.all<{ c: number; p: number }>(
      'SELECT count(compacted_at) AS c, count(pruned_at) AS p FROM history_days',
    );
    return { compacted: Number(rows[0]!.c), pruned: Number(rows[0]!.p) };
  } finally {
    await scene.closeReaders();
  }
}

async function problems(
  duck: DuckDBConnection,
  reader: ArchiveReader,
  scene: Scene,
  root: string,
  refs: readonly DayRef[],
): Promise<string[]> {
  const found: string[] = [];
  const recorded = await reader.all<{
    source: SimSource;
    zone_id: number;
    log_date: string;
    entries: number | null;
    checksum: string | null;
    quarantined: number | null;
    quarantine_checksum: string | null;
    compacted_at: number | null;
  }>('SELECT * FROM history_days');
  for (const ref of refs) {
    const name = `${ref.source} ${ref.zone} ${ref.day}`;
    const sim = scene.sim.entries(ref.source, ref.zone, ref.day as never, scene.now());
    const want = sim
      .filter((e) => e.keyable)
      .map((e) => `${e.timestamp} ${e.logId}`)
      .sort();
    const wantQuarantined = sim.length - want.length;
    const table = entryTable(ref.source);
    const zoneCol = ref.source === 'origin' ? 'pull_zone_id' : 'shield_zone_id';
    const stored = (
      await reader.all<{ k: string }>(
        `SELECT timestamp || ' ' || log_id AS k FROM ${table} WHERE ${zoneCol} = ? AND log_date = ?`,
        ref.zone,
        ref.day,
      )
    )
      .map((r) => r.k)
      .sort();
    const file = dataFile(root, table, ref.zone, ref.day);
    const inFile = existsSync(file) ? await keysOf(duck, file) : null;
    // Readable rows: the file's if published, else the store's; they must be the oracle's exactly.
    const readable = inFile ?? stored;
    if (!same(readable, want))
      found.push(
        `${name}: ${inFile ? 'its file' : 'the store'} holds ${readable.length} rows, the oracle ${want.length}`,
      );
    // Rows pruned from the store are all in the file.
    if (inFile === null && stored.length < want.length)
      found.push(`${name}: rows left the store with no file`);
    if (inFile !== null && stored.some((k) => !inFile.includes(k)) && stored.length !== want.length)
      found.push(`${name}: the store holds rows its file lacks`);
    const qFile = dataFile(root, 'quarantined_entries', ref.zone, ref.day, ref.source);
    const qStored = await reader.all<{ n: number }>(
      'SELECT count(*) AS n FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ?',
      ref.source,
      ref.zone,
      ref.day,
    );
    const qReadable = existsSync(qFile) ? (await keysOf(duck, qFile, 'page')).length : Number(qStored[0]!.n);
    if (qReadable !== wantQuarantined)
      found.push(`${name}: ${qReadable} quarantined entries readable, the oracle has ${wantQuarantined}`);
    // What history_days claims is what the files hold.
    const row = recorded.find(
      (r) => r.source === ref.source && r.zone_id === ref.zone && r.log_date === ref.day,
    );
    if (row?.compacted_at != null) {
      if (
        row.entries &&
        (!existsSync(file) || (await checksumOf(duck, entryShape(ref.source), file)) !== row.checksum)
      )
        found.push(`${name}: history_days claims a file that is missing or differs`);
      if (
        row.quarantined &&
        (!existsSync(qFile) || (await checksumOf(duck, QUARANTINE_SHAPE, qFile)) !== row.quarantine_checksum)
      )
        found.push(`${name}: history_days claims a quarantine file that is missing or differs`);
    }
  }
  return found;
}

async function keysOf(
  duck: DuckDBConnection,
  file: string,
  kind: 'entry' | 'page' = 'entry',
): Promise<string[]> {
  const cols = kind === 'entry' ? `timestamp || ' ' || log_id` : `page || ' ' || position`;
  const r = await duck.runAndReadAll(
    `SELECT ${cols} AS k FROM read_parquet('${file.replaceAll("'", "''")}', hive_partitioning = false)`,
  );
  return r
    .getRows()
    .map((row) => String(row[0]))
    .sort();
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

function countTemps(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && isTempFile(entry.name)) n++;
  return n;
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
}
