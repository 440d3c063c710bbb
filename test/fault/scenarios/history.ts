// The history under faults (issues 20, 27): `edgelog compact` (which flushes the store's rows into parts,
// merges each settled day's parts and prunes) SIGKILLed at random instants and started again; the history
// directory full (a small tmpfs) and read-only (that tmpfs remounted read-only). What must hold, after
// every kill and fault and at the end:
// - each zone-day's rows as a reader reads them (its live parts below the flush watermark, read by
//   DuckDB here, and the store's rows at or above it) equal the simulator's oracle exactly, each once;
// - history_days never claims a part that is missing or differs from what it recorded;
// - no temporary file is ever read as a part (parts.ts: only part-… names are);
// - on PostgreSQL, once a compact completes, no day partition older than the ones made ahead is left
//   empty (pruning drops what it emptied), and the pruned origin days' partitions are gone.
// Each kill aims at one phase in turn (a part being written, the flush done but days not yet merged,
// pruning) or at a random instant, and is counted by the phase the archive shows it hit. The sync that
// fills the archive keeps no history, so each compact flushes it first. On
// either store; the full and read-only directory are about the history's disk and run where asked.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDb } from '../../../src/history/duckdb.js';
import { readWatermark } from '../../../src/history/flush-marker.js';
import { lastUnfetchedDay } from '../../../src/history/plan.js';
import type { SimSource } from '../../../src/simulator/index.js';
import { pastDays } from '../lib/clock.js';
import {
  countStates,
  countTemps,
  historyProblems,
  partitionNames,
  partitionProblems,
  type HistoryDayRef,
} from '../lib/history-check.js';
import type { ScenarioReport } from '../lib/report.js';
import { Scene, type CliRun } from '../lib/scene.js';
import type { StoreName } from '../lib/scene-database.js';
import { rngFor } from '../lib/seeded.js';
import { sleep, waitFor, WaitTimeout, within } from '../lib/wait.js';
import { recordSecretScan, startReport } from '../lib/report.js';

export interface HistoryScenarioOptions {
  seed: number;
  /** SIGKILLs aimed (a part being written, flushed, pruning, a random instant, in turn). */
  kills: number;
  entriesPerDay: number;
  /** The archive's store. @defaultValue 'sqlite' */
  store?: StoreName;
  /** Run the full and the read-only history directory (a tmpfs; root only). @defaultValue true */
  diskFaults?: boolean;
  /**
   * Each kill lands in the compact that takes up what the kill before left (no fresh archive each time,
   * no uninterrupted compact first): fewer runs, for the short form. @defaultValue false
   */
  chain?: boolean;
}

export interface HistoryReport extends ScenarioReport {
  /** The kills by the phase the archive showed each had hit ('after': all the work was done). */
  phases: Record<Phase | 'after', number>;
}

export type Phase = 'compaction' | 'flushed' | 'pruning';
type Aim = Phase | 'random';
const AIMS: readonly Aim[] = ['compaction', 'flushed', 'pruning', 'random'];

const RUN_BOUND_MS = 120_000;

export async function historyScenario(opts: HistoryScenarioOptions): Promise<HistoryReport> {
  const store = opts.store ?? 'sqlite';
  const rng = rngFor(opts.seed, 'history', ...(store === 'sqlite' ? [] : [store]));
  const scene = await Scene.open({
    name: 'history',
    seed: opts.seed,
    clock: 'fixed',
    store,
    sim: { pullZones: [101], shieldZones: [201], entriesPerDay: opts.entriesPerDay, pageSize: 500 },
  });
  const report: HistoryReport = {
    ...startReport(store === 'sqlite' ? 'history' : `history-${store}`, opts.seed),
    phases: { compaction: 0, flushed: 0, pruning: 0, after: 0 },
  };
  const duck = await openDuckDb();
  const mount = (opts.diskFaults ?? true) ? mountPoint() : undefined;
  let pristine: Awaited<ReturnType<Scene['saveArchive']>> | undefined;
  try {
    // Three origin days, and the two Shield days the API still serves (the simulator's clock is yesterday).
    const days = pastDays(scene.now(), 3);
    const refs: HistoryDayRef[] = [
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
    // The sync keeps no history: the compacts flush what it stored.
    scene.writeConfig({ ...base, history: { path: null } });
    for (const [source, from] of [
      ['origin', days[0]!],
      ['shield', days[1]!],
    ] as const) {
      const sync = await scene.run(['sync', '--source', source, '--from', from, '--to', days[2]!]);
      report.runs++;
      if (sync.code !== 0) throw new Error(`the sync that fills the archive failed: ${sync.stderr}`);
    }
    scene.writeConfig({ ...base, history: { path: root, hotDays: 0 } });
    /** `completed`: a compact just ran to its end (then the partitions pruning emptied must be gone). */
    const check = async (when: string, completed = false) => {
      const reader = await scene.reader();
      const found = await historyProblems(duck, reader, scene, root, refs);
      if (completed && scene.store === 'postgres')
        found.push(...(await partitionProblems(reader, { allOriginPruned: true })));
      await scene.closeReaders();
      report.problems.push(...found.map((p) => `${when}: ${p}`));
    };

    // The archive as the sync left it: each kill lands in a fresh compact of it (a compact that finished
    // leaves nothing for the next kill to interrupt). Chained, each kill lands instead in the compact that
    // takes up the work the one before left, and only the last compact completes it.
    const chain = opts.chain ?? false;
    pristine = chain ? undefined : await scene.saveArchive();
    const saved = pristine;
    const reset = async () => {
      await scene.closeReaders();
      await saved?.restore();
      rmSync(root, { recursive: true, force: true });
    };
    let fullMs = 3_000;
    if (!chain) {
      const partitionsBefore = scene.store === 'postgres' ? await partitionNames(scene) : [];
      const t0 = Date.now();
      const probe = await scene.run(['compact']);
      fullMs = Date.now() - t0;
      report.runs++;
      report.notes.push(
        `an uninterrupted compact took ${fullMs} ms: ${probe.stdout.trim().replace(/\n/g, ' / ')}`,
      );
      await check('after an uninterrupted compact', true);
      if (scene.store === 'postgres') {
        const after = await partitionNames(scene);
        const dropped = partitionsBefore.filter((p) => !after.includes(p));
        report.notes.push(`pruning dropped ${dropped.length} partitions: ${dropped.join(', ')}`);
      }
      await reset();
    }

    // SIGKILL at an instant of a compact aimed at one phase, a check, a compact that completes the
    // work, a check (chained: the next kill's compact takes up the work).
    const aims = { compaction: 0, flushed: 0, pruning: 0, random: 0 };
    for (let i = 0; i < opts.kills; i++) {
      const aim = AIMS[i % AIMS.length]!;
      // Chained, the day the killed compact held stays leased a while: the next one waits it out, so as
      // to reach the phase it aims at.
      if (chain) await leasesOut(scene);
      const run = scene.start(['compact']);
      report.runs++;
      let exited = false;
      void run.done.then(() => (exited = true));
      await aimAt(aim, { run, exited: () => exited, rng, scene, root, refs, fullMs });
      const killed = !exited;
      if (killed) {
        run.child.kill('SIGKILL');
        report.kills++;
        aims[aim]++;
      }
      await within(run.done, RUN_BOUND_MS);
      if (!killed) report.notes.push(`kill ${i + 1} (aimed at ${aim}) came after the compact had ended`);
      else report.phases[await phaseHit(scene, root, refs)]++;
      await check(`after kill ${i + 1}`);
      if (chain) continue;
      await completeAfterKill(scene, report, i + 1);
      await check(`after the compact that followed kill ${i + 1}`, true);
      await reset();
    }
    const { phases } = report;
    report.notes.push(
      `${report.kills} of ${opts.kills} SIGKILLs landed in a running compact (aimed: ${aims.compaction} at ` +
        `a part being written, ${aims.flushed} after the flush, ${aims.pruning} at pruning, ${aims.random} at ` +
        `random); they hit ${phases.compaction} while a part was written, ${phases.flushed} ` +
        `with the flush done and a day not yet merged, ${phases.pruning} while pruning, ` +
        `${phases.after} once the work was done`,
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
    } else if (opts.diskFaults ?? true)
      report.notes.push('no tmpfs could be mounted: the full-disk and read-only parts did not run');

    await completeAfterKill(scene, report, opts.kills);
    await check('at the end', true);
    const final = await dayStates(scene);
    if (final.compacted !== refs.length)
      report.problems.push(`${final.compacted} of ${refs.length} days compacted at the end`);
    // With the real clock (the CLI's): hotDays 0 keeps today's rows; a day leaves the store once no
    // longer fetched (origin: originLookbackDays 1; Shield: the API's window).
    const cold = refs.filter((r) => r.day <= lastUnfetchedDay(r.source, Date.now(), 1)).length;
    if (final.pruned !== cold)
      report.problems.push(`${final.pruned} days pruned at the end, ${cold} expected`);
    const temps = countTemps(root);
    report.notes.push(`${temps} temporary files left by killed writers (never read as parts: parts.ts)`);
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    duck.closeSync();
    await scene.closeReaders();
    await pristine?.drop();
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

/**
 * Runs the compact that completes the work a kill interrupted. The killed process's day leases stay until
 * they run out (worker.lease; a history lease is not taken over from a dead process at once): a compact
 * that finds a day still leased skips it and says so, and then runs again once every lease has run out.
 */
async function completeAfterKill(scene: Scene, report: ScenarioReport, kill: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const again = await scene.run(['compact']);
    report.runs++;
    if (again.code !== 0) {
      report.problems.push(`the compact after kill ${kill} failed: ${again.stderr}`);
      return;
    }
    if (!/being compacted by another worker|not pruned yet/.test(again.stdout)) return;
    if (attempt === 3) {
      report.problems.push(
        `after kill ${kill}, days stayed leased through ${attempt} compacts: ${again.stdout}`,
      );
      return;
    }
    await leasesOut(scene);
  }
}

/** Waits until every history lease has run out. */
async function leasesOut(scene: Scene): Promise<void> {
  const reader = await scene.reader();
  // The days' leases and the flush's (a killed flusher's holds the next flush off until it lapses).
  const rows = await reader.all<{ until: number | null }>(
    'SELECT max(u) AS until FROM (SELECT max(lease_until) AS u FROM history_days ' +
      'UNION ALL SELECT lease_until AS u FROM history_flush) AS leases',
  );
  await scene.closeReaders();
  await sleep(Math.max(0, Number(rows[0]?.until ?? 0) - Date.now()) + 100);
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
  try {
    return await countStates(await scene.reader());
  } finally {
    await scene.closeReaders();
  }
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
}

interface AimContext {
  run: CliRun;
  exited: () => boolean;
  rng: ReturnType<typeof rngFor>;
  scene: Scene;
  root: string;
  refs: readonly HistoryDayRef[];
  /** How long an uninterrupted compact took. */
  fullMs: number;
}

/**
 * Waits for the compact to reach the phase aimed at (or to end), then a random while within it:
 * compaction, a part (the flush's or a merge's) being written; flushed, the flush's watermark just written
 * (the merges come next); pruning, every day recorded.
 */
async function aimAt(aim: Aim, c: AimContext): Promise<void> {
  const until = async (what: string, seen: () => boolean | Promise<boolean>, everyMs: number) => {
    try {
      await waitFor(what, async () => (c.exited() || (await seen()) ? true : undefined), {
        timeoutMs: RUN_BOUND_MS,
        everyMs,
      });
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
    }
  };
  switch (aim) {
    case 'random':
      return sleep(c.rng.int(200, Math.max(300, c.fullMs)));
    case 'compaction':
      // At once, or nearly: a small day's part is written, verified and renamed in tens of ms, and under
      // load a longer wait landed the kill after the rename.
      await until('a file being written', () => countTemps(c.root) > 0, 5);
      return sleep(c.rng.int(0, 10));
    case 'flushed':
      // The watermark written: the flush is done, the merges come next. At once, or nearly: the merges of
      // small days take tens of ms, and a longer wait landed the kill after the compact had ended.
      await until('the flush done', () => readWatermark(c.root) > 0n, 2);
      return sleep(c.rng.int(0, 5));
    case 'pruning': {
      const reader = await c.scene.reader();
      try {
        await until(
          'every day recorded',
          async () => (await countStates(reader)).compacted === c.refs.length,
          10,
        );
      } finally {
        await c.scene.closeReaders();
      }
      return sleep(c.rng.int(0, 100));
    }
  }
}

/** The phase a killed compact was in, as the archive it left shows. */
async function phaseHit(
  scene: Scene,
  root: string,
  refs: readonly HistoryDayRef[],
): Promise<Phase | 'after'> {
  const reader = await scene.reader();
  try {
    const recorded = await reader.all<{ source: SimSource; zone_id: number; log_date: string }>(
      'SELECT source, zone_id, log_date FROM history_days WHERE compacted_at IS NOT NULL',
    );
    const isRecorded = (r: HistoryDayRef) =>
      recorded.some((h) => h.source === r.source && h.zone_id === r.zone && h.log_date === r.day);
    if (refs.some((r) => !isRecorded(r))) return readWatermark(root) > 0n ? 'flushed' : 'compaction';
    const { pruned } = await countStates(reader);
    const cold = refs.filter((r) => r.day <= lastUnfetchedDay(r.source, Date.now(), 1)).length;
    if (pruned < cold) return 'pruning';
    if (scene.store === 'postgres' && (await partitionProblems(reader, { allOriginPruned: true })).length > 0)
      return 'pruning';
    return 'after';
  } finally {
    await scene.closeReaders();
  }
}
