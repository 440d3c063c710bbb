// Scenario 7: every simulator fault knob, in seeded random combinations, through `edgelog sync`: each day
// ends retried to success or in a clear, permanent state that `edgelog status` shows, never a hang. The
// API echoes the key in its error bodies, and some mixes send a wrong key: the secrets are scanned too.
// On either store.
import type { SyncDay, SyncSummary } from '../../../src/sync/sync-summary.js';
import { FAULT_KINDS } from '../../../src/simulator/index.js';
import type { LedgerRow } from '../../../src/store/sqlite/ledger.js';
import { addDays, type Day } from '../../../src/time/utc-day.js';
import { startReceiver } from '../../support/receiver.js';
import { checkDay, claimProblems, type DayRef } from '../lib/archive-check.js';
import { pastDays } from '../lib/clock.js';
import { integrityCheckName } from '../lib/integrity.js';
import {
  describeMix,
  drawFaultMix,
  expectedVerdict,
  RETRY_ATTEMPTS,
  type FaultMix,
} from '../lib/fault-mix.js';
import { faultsFired, type ScenarioReport, startReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import type { StoreName } from '../lib/scene-database.js';
import { rngFor } from '../lib/seeded.js';
import { within } from '../lib/wait.js';

export interface FaultsOptions {
  seed: number;
  /** Random mixes to try. */
  mixes: number;
  /** The archive's store. @defaultValue 'sqlite' */
  store?: StoreName;
}

export interface FaultsReport extends ScenarioReport {
  /** Fault kinds that fired at least once, over every mix. */
  kindsFired: string[];
  /** Day outcomes seen, e.g. { complete: 12, incomplete: 2, failed: 3, expired: 1 }. */
  outcomes: Record<string, number>;
}

const SYNC_BOUND_MS = 150_000;
const UNKNOWN_ZONE = 209;
/** An error as one readable line: no stack trace, no control characters, no undecodable bytes. */
// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\x00-\x1f\x7f\ufffd]+$/;

export async function faultsScenario(opts: FaultsOptions): Promise<FaultsReport> {
  const report: FaultsReport = {
    ...startReport(
      (opts.store ?? 'sqlite') === 'sqlite' ? 'fault-knob-mixes' : `fault-knob-mixes-${opts.store}`,
      opts.seed,
    ),
    kindsFired: [],
    outcomes: {},
  };
  const fired = new Set<string>();
  // Mix i leads with kind (offset + i): fourteen mixes in a row use every kind at least once.
  const offset = rngFor(opts.seed, 'faults', 'offset').int(0, FAULT_KINDS.length - 1);
  for (let i = 0; i < opts.mixes; i++) {
    const mix = drawFaultMix(rngFor(opts.seed, 'faults', i), FAULT_KINDS[(offset + i) % FAULT_KINDS.length]);
    const problems = await tryMix(opts.seed, i, mix, report, fired, opts.store ?? 'sqlite');
    report.problems.push(...problems.map((p) => `mix ${i + 1} [${describeMix(mix)}]: ${p}`));
  }
  report.kindsFired = [...fired].sort();
  const outcomes = Object.entries(report.outcomes).map(([k, n]) => `${n} ${k}`);
  report.notes.push(
    `${report.kindsFired.length} of ${FAULT_KINDS.length} fault kinds fired (${report.kindsFired.join(', ')}); ` +
      `days ended ${outcomes.join(', ')}`,
  );
  return report;
}

async function tryMix(
  seed: number,
  index: number,
  mix: FaultMix,
  report: FaultsReport,
  fired: Set<string>,
  store: StoreName,
): Promise<string[]> {
  const scene = await Scene.open({
    name: `faults-${index}`,
    seed: seed + index,
    clock: 'fixed',
    store,
    sim: {
      pullZones: [101],
      shieldZones: [201],
      entriesPerDay: 1_000,
      pageSize: 250,
      oddEntryRate: mix.oddEntryRate,
      malformedRate: mix.malformedRate,
      dotTokens: mix.dotTokens,
      echoKey: true,
      faults: mix.faults,
    },
  });
  const receiver = await startReceiver();
  const problems: string[] = [];
  try {
    scene.writeConfig({
      shieldZones: [201, ...(mix.unknownZone ? [UNKNOWN_ZONE] : [])],
      pullZones: [101],
      api: {
        connectTimeout: '1s',
        headersTimeout: '1s',
        bodyTimeout: '1s',
        requestDeadline: '60s',
        retryAttempts: RETRY_ATTEMPTS,
      },
      worker: { jobAttempts: 1 },
      alerts: {
        hooks: scene.hooks(new URL(receiver.url).origin),
        rules: [{ name: 'flat', type: 'flatline', source: 'origin', maxAge: '1m', hooks: ['ops', 'chat'] }],
      },
      log: { level: 'debug' },
    });
    const days = pastDays(scene.now(), 2);
    const expiredDay: Day | undefined = mix.expiredDay ? addDays(days[0]!, -1) : undefined;
    const wrongKey = mix.wrongKey ? `wk-${scene.secrets.accessKey.slice(3)}x` : undefined;
    const result = await within(
      scene.run(['sync', '--from', expiredDay ?? days[0]!, '--to', days[1]!, '--json'], {
        ...(wrongKey ? { accessKey: wrongKey } : {}),
      }),
      SYNC_BOUND_MS,
    );
    report.runs++;
    if (!result) return [`sync still running after ${SYNC_BOUND_MS / 1000} s`];
    let summary: SyncSummary;
    try {
      summary = JSON.parse(result.stdout) as SyncSummary;
    } catch {
      return [`sync printed no summary (exit ${result.code}): ${result.stderr.slice(0, 500)}`];
    }
    const status = await scene.run(['status', '--json']);
    report.runs++;
    const ledger = (JSON.parse(status.stdout) as { ledger: LedgerRow[] }).ledger;
    const db = await scene.reader();
    if (index === 0) report.notes.push(`integrity check: ${await integrityCheckName(db)}`);
    for (const day of summary.results) {
      report.outcomes[day.outcome] = (report.outcomes[day.outcome] ?? 0) + 1;
      const verdict = expectedVerdict(mix, {
        source: day.source,
        expired: day.source === 'shield' && day.day === expiredDay,
        unknownZone: day.zone === UNKNOWN_ZONE,
      });
      const at = `${day.source} ${day.zone} ${day.day}`;
      const shown = ledger.find(
        (l) => l.source === day.source && l.zone_id === day.zone && l.log_date === day.day,
      );
      problems.push(...judgeDay(day, verdict, shown).map((p) => `${at}: ${p}`));
      if (day.outcome === 'complete') {
        const ref: DayRef = { source: day.source, zone: day.zone, day: day.day as Day };
        problems.push(...(await checkDay(db, scene.sim, ref, { at: scene.now() })).problems);
      }
    }
    const refs: DayRef[] = summary.results.map((d) => ({
      source: d.source,
      zone: d.zone,
      day: d.day as Day,
    }));
    problems.push(...(await claimProblems(db, scene.sim, refs, scene.now())));
    await scene.closeReaders();
    for (const [kind, n] of Object.entries(scene.sim.stats.faults)) if (n > 0) fired.add(kind);
    report.faults += faultsFired(scene.sim.stats);
    const scan = await scene.scanSecrets(wrongKey ? [{ name: 'the wrong access key', value: wrongKey }] : []);
    report.secretsScanned += scan.scanned;
    problems.push(...scan.findings);
    return problems;
  } finally {
    await receiver.close();
    await scene.close();
  }
}

/** What is wrong with how one day ended, given what its mix allows; [] when it ended as it may. */
export function judgeDay(day: SyncDay, verdict: string, shown: LedgerRow | undefined): string[] {
  const problems: string[] = [];
  const allowed: Record<string, readonly string[]> = {
    complete: ['complete'],
    'complete-or-incomplete': ['complete', 'incomplete'],
    failed: ['failed'],
    expired: ['expired'],
    'expired-or-failed': ['expired', 'failed'],
  };
  if (!allowed[verdict]!.includes(day.outcome)) {
    problems.push(`ended ${day.outcome}, expected ${verdict}${day.error ? `: ${day.error}` : ''}`);
  }
  if (day.outcome !== 'complete' && day.outcome !== 'partial') {
    if (!day.error || !ONE_LINE.test(day.error))
      problems.push(`no clear error: ${JSON.stringify(day.error)}`);
  }
  if (!shown) problems.push('not in `edgelog status`');
  else {
    if (shown.state !== day.state) problems.push(`status shows ${shown.state}, the sync said ${day.state}`);
    const permanent = ['failed', 'incomplete', 'expired'];
    if (permanent.includes(day.outcome) && !permanent.includes(shown.state) && shown.state !== 'running') {
      problems.push(`status shows ${shown.state} after a ${day.outcome} pass`);
    }
    if (day.outcome !== 'complete' && !shown.last_error) problems.push('status shows no last error');
  }
  return problems;
}
