// Scenario 1: SIGKILL at random instants during one many-page, many-zone sync on an API with transient
// faults, each kill followed by a restart into the same archive; then the archive equals the oracle
// exactly, the ledger's totals equal the rows, and the store finds the archive sound. On either store.
import type { SyncSummary } from '../../../src/sync/sync-summary.js';
import type { FaultSpec } from '../../../src/simulator/index.js';
import { archiveProblems, type DayRef } from '../lib/archive-check.js';
import { pastDays } from '../lib/clock.js';
import { integrityCheckName } from '../lib/integrity.js';
import { signalAtRandom } from '../lib/kill-at.js';
import { ProgressProbe } from '../lib/progress.js';
import { faultsFired, recordSecretScan, type ScenarioReport, startReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import type { StoreName } from '../lib/scene-database.js';
import { rngFor } from '../lib/seeded.js';
import { within } from '../lib/wait.js';

export interface KillsOptions {
  seed: number;
  /** SIGKILLs that must land while the sync is still working. */
  kills: number;
  /** Per zone and day; Shield days come in pages of `pageSize`. */
  entriesPerDay: number;
  pageSize: number;
  /** The archive's store. @defaultValue 'sqlite' */
  store?: StoreName;
}

/** Transient faults only: every one of them is retried to success. */
export const TRANSIENT_FAULTS: FaultSpec[] = [
  { kind: '503', rate: 0.03 },
  { kind: '429', rate: 0.02, retryAfter: '0' },
  { kind: 'reset', rate: 0.02 },
  { kind: 'truncate', rate: 0.02 },
];

const FINAL_RUN_MS = 180_000;

export async function killsScenario(opts: KillsOptions): Promise<ScenarioReport> {
  const rng = rngFor(opts.seed, 'kills');
  const store = opts.store ?? 'sqlite';
  const scene = await Scene.open({
    name: 'kills',
    seed: opts.seed,
    clock: 'fixed',
    store,
    sim: {
      pullZones: [101, 102],
      shieldZones: [201, 202],
      entriesPerDay: opts.entriesPerDay,
      pageSize: opts.pageSize,
      oddEntryRate: 0.02,
      malformedRate: 0.01,
      latencyMs: 5,
      echoKey: true,
      faults: TRANSIENT_FAULTS,
    },
  });
  const report: ScenarioReport = {
    ...startReport(store === 'sqlite' ? 'sigkill-resume' : `sigkill-resume-${store}`, opts.seed),
  };
  const probe = new ProgressProbe(scene.archive);
  try {
    scene.writeConfig({ log: { level: 'warn' } });
    const days = pastDays(scene.now(), 2);
    const [from, to] = [days[0]!, days[1]!];
    const args = ['sync', '--from', from, '--to', to, '--json'];
    let atStartup = 0;
    let midIngest = 0;
    while (report.kills < opts.kills) {
      const run = scene.start(args);
      report.runs++;
      const landing = await signalAtRandom(run, 'SIGKILL', { rng, probe, pageSize: opts.pageSize });
      if (landing.exitedFirst) {
        const result = await run.done;
        report.problems.push(
          `run ${report.runs} ended (exit ${result.code}) before its kill: the sync finished after ${report.kills} of ${opts.kills} kills; give it more pages`,
        );
        break;
      }
      await run.done;
      report.kills++;
      if (landing.midIngest) midIngest++;
      else atStartup++;
    }
    report.notes.push(
      `${midIngest} kills while entries were being stored, ${atStartup} before any (start-up, or between days)`,
    );

    const final = await within(scene.run(args), FINAL_RUN_MS);
    report.runs++;
    if (!final) report.problems.push(`the final sync did not finish within ${FINAL_RUN_MS / 1000} s`);
    else {
      const summary = final.code === 0 ? (JSON.parse(final.stdout) as SyncSummary) : undefined;
      if (!summary?.ok) {
        report.problems.push(`the final sync failed (exit ${final.code}): ${final.stderr.slice(0, 500)}`);
      }
      const refs: DayRef[] = days.flatMap((day) => [
        ...[101, 102].map((zone) => ({ source: 'origin' as const, zone, day })),
        ...[201, 202].map((zone) => ({ source: 'shield' as const, zone, day })),
      ]);
      await probe.close();
      const reader = await scene.reader();
      report.problems.push(...(await archiveProblems(reader, scene.sim, refs, { at: scene.now() })));
      report.notes.unshift(`integrity check: ${await integrityCheckName(reader)}`);
      await scene.closeReaders();
    }
    report.faults = faultsFired(scene.sim.stats);
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await probe.close();
    await scene.close();
  }
}
