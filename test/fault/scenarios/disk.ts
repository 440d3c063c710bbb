// Scenario 4: the archive's disk fills up mid-ingest, or the archive is made read-only mid-ingest (its
// folder and files). What must hold: the run ends (no hang), the ledger claims nothing the tables do not
// hold, the file stays sound, and once there is room (or write access) again a sync completes the archive
// exactly. What the error says is recorded too: it should name the archive and the cause.
import { chmodSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SimSource } from '../../../src/simulator/index.js';
import { claimProblems, archiveProblems, type DayRef } from '../lib/archive-check.js';
import { pastDays } from '../lib/clock.js';
import { ProgressProbe } from '../lib/progress.js';
import { faultsFired, recordSecretScan, type ScenarioReport, startReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import { rngFor } from '../lib/seeded.js';
import { smallDisk, type SmallDisk } from '../lib/small-disk.js';
import { sleep, within } from '../lib/wait.js';

export interface DiskOptions {
  seed: number;
  /** `full`: a small disk (a tmpfs where this process may mount one, else `ulimit -f`); `full-ulimit`: the limit. */
  variant: 'full' | 'full-ulimit' | 'read-only';
  entriesPerDay: number;
  /** The small disk's size (variant `full`). @defaultValue 4 MiB */
  diskBytes?: number;
}

export interface DiskReport extends ScenarioReport {
  /** How the fault was made: a small tmpfs, a file size limit, or permissions. */
  via: 'tmpfs' | 'ulimit' | 'chmod';
  /** The run that met the fault ended by itself within the bound. */
  ended: boolean;
  /** What that run (or, read-only, the run started after it) printed. */
  failureText: string;
  /** That text names the archive's path and the cause (full, read-only). */
  clearMessage: boolean;
  /** Ledger and tables agree, and the file is sound, right after the fault. */
  truthful: boolean;
  /** A sync with room (write access) again left the archive exact. */
  recovered: boolean;
  /** "background checkpoint failed" lines the faulty run logged. */
  checkpointWarnings: number;
}

const RUN_BOUND_MS = 120_000;
const NOBODY = { uid: 65534, gid: 65534 };

export async function diskScenario(opts: DiskOptions): Promise<DiskReport> {
  const rng = rngFor(opts.seed, 'disk', opts.variant);
  const bytes = opts.diskBytes ?? 4 * 2 ** 20;
  const disk: SmallDisk | undefined =
    opts.variant === 'read-only' ? undefined : smallDisk(bytes, opts.variant === 'full' ? 'tmpfs' : 'ulimit');
  // Root ignores file permissions: the read-only variant runs the CLI as nobody.
  const asNobody = opts.variant === 'read-only' && process.getuid?.() === 0;
  const scene = await Scene.open({
    name: `disk-${opts.variant}`,
    seed: opts.seed,
    clock: 'fixed',
    ...(disk?.dir ? { archiveDir: disk.dir } : {}),
    ...(asNobody ? { user: NOBODY } : {}),
    sim: {
      pullZones: [101],
      shieldZones: [201],
      entriesPerDay: opts.entriesPerDay,
      pageSize: 200,
      latencyMs: 5,
    },
  });
  const report: DiskReport = {
    ...startReport(disk ? `disk-full (${disk.kind})` : 'archive-read-only', opts.seed, 1),
    via: disk ? disk.kind : 'chmod',
    ended: false,
    failureText: '',
    clearMessage: false,
    truthful: false,
    recovered: false,
    checkpointWarnings: 0,
  };
  const probe = new ProgressProbe(scene.archive);
  try {
    // One attempt per job: a full disk is retryable, and BullMQ's backoff would only make this slower.
    scene.writeConfig({
      pullZones: [101],
      shieldZones: [201],
      worker: { jobAttempts: 1 },
      log: { level: 'warn' },
    });
    const days = pastDays(scene.now(), 2);
    const refs: DayRef[] = days.flatMap((day) =>
      (['origin', 'shield'] as SimSource[]).map((source) => ({
        source,
        zone: source === 'origin' ? 101 : 201,
        day,
      })),
    );
    const args = ['sync', '--from', days[0]!, '--to', days[1]!];
    const limit = disk?.fileSizeBlocks !== undefined ? { fileSizeBlocks: disk.fileSizeBlocks } : {};
    const run = scene.start(args, limit);
    report.runs++;
    if (opts.variant === 'read-only') {
      const target = rng.int(2, 10) * 200;
      while ((await probe.entries()) < target) await sleep(10);
      setReadOnly(scene.dbPath, true);
      report.notes.push(`archive made read-only after ${await probe.entries()} entries were stored`);
    }
    const first = await within(run.done, RUN_BOUND_MS);
    report.ended = first !== undefined;
    if (!first) {
      run.child.kill('SIGKILL');
      report.problems.push(`the sync that met the fault was still running after ${RUN_BOUND_MS / 1000} s`);
    }
    let failed = first;
    if (opts.variant === 'read-only') {
      // The running process keeps its open files; the next one meets the read-only archive at start.
      failed = await within(scene.run(args), RUN_BOUND_MS);
      report.runs++;
      if (!failed) report.problems.push('a sync started on the read-only archive did not end');
    }
    report.failureText = failed ? `${failed.stdout}\n${failed.stderr}` : '';
    report.checkpointWarnings = (report.failureText.match(/background checkpoint failed/g) ?? []).length;
    if (failed?.code === 0) report.problems.push(`the sync that met the fault exited 0:\n${failed.stdout}`);
    const cause = disk ? /full|no space|too large/i : /read-?only|permission/i;
    const named =
      report.failureText.includes(scene.dbPath) || report.failureText.includes(dirname(scene.dbPath));
    report.clearMessage = cause.test(report.failureText) && named;
    report.notes.push(
      `the failing run said: ${firstErrorLine(report.failureText)}` +
        ` (names the archive and the cause: ${report.clearMessage ? 'yes' : 'no'})`,
    );

    await probe.close();
    const truth = await claimProblems(await scene.reader(), scene.sim, refs, scene.now());
    await scene.closeReaders();
    report.truthful = truth.length === 0;
    report.problems.push(...truth);

    if (disk) disk.grow();
    else setReadOnly(scene.dbPath, false);
    const again = await within(scene.run(args), RUN_BOUND_MS);
    report.runs++;
    if (again?.code !== 0)
      report.problems.push(`the sync after making room failed: ${again?.stdout ?? 'it did not end'}`);
    const exact = await archiveProblems(await scene.reader(), scene.sim, refs, { at: scene.now() });
    await scene.closeReaders();
    report.recovered = again?.code === 0 && exact.length === 0;
    report.problems.push(...exact);
    report.faults += faultsFired(scene.sim.stats);
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await probe.close();
    if (opts.variant === 'read-only' && existsSync(dirname(scene.dbPath))) setReadOnly(scene.dbPath, false);
    await scene.close();
    disk?.release();
  }
}

/** The archive's folder and files read-only (or writable again). */
function setReadOnly(dbPath: string, readOnly: boolean): void {
  chmodSync(dirname(dbPath), readOnly ? 0o555 : 0o755);
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(dbPath + suffix)) chmodSync(dbPath + suffix, readOnly ? 0o444 : 0o644);
  }
}

/** The first line that says what went wrong (a summary row, an error line), shortened. */
function firstErrorLine(text: string): string {
  const lines = text.split('\n');
  const line =
    lines.find((l) => /full|read-?only|permission|no space|too large/i.test(l)) ??
    lines.find((l) => /\bfailed\b|^edgelog:/.test(l));
  return (line ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
}
