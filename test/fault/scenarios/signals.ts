// Scenario 2: SIGINT and SIGTERM at random instants on `sync` and on `run`: the process exits within
// worker.shutdownTimeout (and a little for the process itself to end), and a later run completes the
// archive exactly.
import type { SyncSummary } from '../../../src/sync/sync-summary.js';
import { dayOf } from '../../../src/time/utc-day.js';
import { archiveProblems, checkDay, type DayRef } from '../lib/archive-check.js';
import { clearOfMidnight, pastDays } from '../lib/clock.js';
import { signalAtRandom } from '../lib/kill-at.js';
import { ProgressProbe } from '../lib/progress.js';
import { faultsFired, recordSecretScan, type ScenarioReport, startReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import { rngFor } from '../lib/seeded.js';
import { within } from '../lib/wait.js';
import { TRANSIENT_FAULTS } from './kills.js';

export interface SignalsOptions {
  seed: number;
  /** Signals per (command, signal) pair: sync/run × SIGINT/SIGTERM. */
  rounds: number;
  entriesPerDay: number;
  pageSize: number;
}

/** The configured bound on a clean stop. */
export const SHUTDOWN_TIMEOUT_MS = 3_000;
/**
 * What the process may take beyond it to end: closing Redis and the archive, Node's own exit, on a
 * loaded machine (the other tests' slack too).
 */
export const EXIT_GRACE_MS = 4_000;

const ZONES = { origin: [101, 102], shield: [201, 202] };

export async function signalsScenario(opts: SignalsOptions): Promise<ScenarioReport> {
  const rng = rngFor(opts.seed, 'signals');
  const budget = 60_000 + opts.rounds * 4 * 15_000;
  await clearOfMidnight(budget);
  const scene = await Scene.open({
    name: 'signals',
    seed: opts.seed,
    clock: 'real', // `run` plans from the real clock
    sim: {
      pullZones: ZONES.origin,
      shieldZones: ZONES.shield,
      entriesPerDay: opts.entriesPerDay,
      pageSize: opts.pageSize,
      oddEntryRate: 0.02,
      latencyMs: 5,
      echoKey: true,
      faults: TRANSIENT_FAULTS,
    },
  });
  const report: ScenarioReport = {
    ...startReport('sigint-sigterm', opts.seed),
  };
  const probe = new ProgressProbe(scene.archive);
  const exitTimes: number[] = [];
  try {
    scene.writeConfig({
      schedule: { finalizeDelay: '0s' },
      worker: { shutdownTimeout: SHUTDOWN_TIMEOUT_MS },
      log: { level: 'warn' },
    });
    const days = pastDays(scene.now(), 2);
    const today = dayOf(scene.now());
    const syncArgs = ['sync', '--from', days[0]!, '--to', today];
    let midIngest = 0;
    let beforeHandlers = 0;
    for (let round = 0; round < opts.rounds; round++) {
      for (const command of ['sync', 'run'] as const) {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          const run = scene.start(command === 'sync' ? syncArgs : ['run']);
          report.runs++;
          // `run` never ends by itself: its instant is drawn from its first pages like the others.
          const landing = await signalAtRandom(run, signal, { rng, probe, pageSize: opts.pageSize });
          if (landing.exitedFirst) {
            report.notes.push(`${command} ended before its ${signal}`);
            continue;
          }
          report.kills++;
          if (landing.midIngest) midIngest++;
          const bound = SHUTDOWN_TIMEOUT_MS + EXIT_GRACE_MS;
          const result = await within(run.done, bound + 30_000);
          const took = Date.now() - landing.sentAt;
          exitTimes.push(took);
          const what = `${command} after ${signal} (run ${report.runs})`;
          if (!result) {
            run.child.kill('SIGKILL');
            report.problems.push(`${what}: still running ${bound + 30_000} ms after the signal`);
            continue;
          }
          report.notes.push(
            `${what}: sent ${landing.sentAt - run.startedAt} ms after start, exit ${result.code}/${result.signal} after ${took} ms, mid ${landing.midIngest}`,
          );
          if (took > bound) report.problems.push(`${what}: exited after ${took} ms, bound ${bound} ms`);
          // sync: 130 when interrupted, 0 when it had finished its days; run: 0 after a clean stop. A
          // signal that comes while Node is still loading the CLI, before edgelog has its handlers,
          // ends the process the default way: nothing was started, nothing is lost.
          const fine = command === 'sync' ? [0, 130] : [0];
          if (result.signal === signal && !landing.midIngest && result.stderr === '') beforeHandlers++;
          else if (!fine.includes(result.code ?? -1)) {
            report.problems.push(
              `${what}: exit ${result.code ?? result.signal}: ${result.stderr.slice(-500)}`,
            );
          }
          if (/"level":(50|60)/.test(result.stderr)) {
            const line = result.stderr.split('\n').find((l) => /"level":(50|60)/.test(l));
            report.problems.push(`${what}: logged an error: ${line?.slice(0, 300)}`);
          }
        }
      }
    }
    report.notes.push(
      `${midIngest} of ${report.kills} signals while entries were being stored, ${beforeHandlers} before ` +
        `edgelog had its handlers; exits after ` +
        `${Math.min(...exitTimes)}–${Math.max(...exitTimes)} ms (bound ${SHUTDOWN_TIMEOUT_MS} + ${EXIT_GRACE_MS} ms)`,
    );

    const final = await within(scene.run([...syncArgs, '--json']), 180_000);
    report.runs++;
    const summary = final?.code === 0 ? (JSON.parse(final.stdout) as SyncSummary) : undefined;
    if (!summary?.ok) {
      report.problems.push(
        `the final sync did not succeed (exit ${final?.code}): ${final?.stderr.slice(0, 500)}`,
      );
    }
    await probe.close();
    const refs = (source: 'origin' | 'shield'): DayRef[] =>
      days.flatMap((day) => ZONES[source].map((zone) => ({ source, zone, day })));
    const db = await scene.reader();
    report.problems.push(
      ...(await archiveProblems(db, scene.sim, [...refs('origin'), ...refs('shield')], { at: scene.now() })),
    );
    // Today still fills in: what the archive holds of it must have been served, nothing more.
    for (const [source, zones] of Object.entries(ZONES) as Array<['origin' | 'shield', number[]]>) {
      for (const zone of zones) {
        const check = await checkDay(
          db,
          scene.sim,
          { source, zone, day: today },
          { at: Date.now(), mode: 'subset' },
        );
        report.problems.push(...check.problems);
      }
    }
    await scene.closeReaders();
    report.faults = faultsFired(scene.sim.stats);
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await probe.close();
    await scene.close();
  }
}
