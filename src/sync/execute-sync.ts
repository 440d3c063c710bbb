// `edgelog sync`'s use case: work the plan's days on a private queue, wait, check the alert rules of the
// zones touched, and sum it all up (sync-summary.ts renders it).
import { randomUUID } from 'node:crypto';
import { HAND_BACK_MS } from '../alerts/notifier.js';
import type { Notifier } from '../alerts/notifier.js';
import type { Config } from '../config/index.js';
import { DEFAULT_CONFIG_FILE } from '../config/load.js';
import { InterruptedError } from '../errors/index.js';
import { startProgress, stderrLine, type ProgressOutput } from '../format/progress.js';
import type { DayResult } from '../ingest/day-ingestor.js';
import type { Logger } from '../logger.js';
import type { DayJob } from '../queue/jobs.js';
import type { IngestRuntime, JobOutcome } from '../queue/runtime.js';
import type { ArchiveStore, LedgerStore, LogSource } from '../store/store.js';
import type { HistoryWork } from '../history/history-process.js';
import { FLUSH_ROWS } from '../history/history-runner.js';
import type { SyncPlan } from './sync-plan.js';
import { renderSummary, type SyncDay, type SyncSummary } from './sync-summary.js';

/** What a sync uses of the engine (engine.ts Engine has it all). */
export interface SyncEngine {
  config: Config;
  now: () => number;
  logger: Logger;
  store: Pick<ArchiveStore, 'ledger'>;
  privateRuntime(name: string): IngestRuntime;
  history?: Pick<HistoryWork, 'flushIfDue' | 'peakRssMb'> | undefined;
  alerts: {
    notifier: Pick<Notifier, 'startWorker' | 'settleSince' | 'stopWorker' | 'flushOutbox'>;
    check(scope: { source: LogSource | 'guardian'; zone: number } | { source: 'sql' }): Promise<unknown>;
  };
}

export interface SyncRunOptions {
  /** Jobs at once. @defaultValue worker.concurrency */
  concurrency?: number | undefined;
  /** Stops the sync (InterruptedError). */
  signal?: AbortSignal;
  /** Where to show progress (a terminal, or plain lines now and then). @defaultValue none */
  progress?: ProgressOutput;
  /** Columns of the terminal the summary goes to. @defaultValue none: not a terminal */
  width?: number;
  /** API requests retried so far (EngineOptions.onRetry counts them), for the summary. @defaultValue none */
  retries?: () => number;
}

/** Where the access key is set, as the access-key hint names it. */
function configFileName(config: Config): string {
  return config.origin === 'defaults'
    ? `${DEFAULT_CONFIG_FILE} (or the file given by --config)`
    : config.origin;
}

/**
 * Works the plan's days on a private queue of this run (so it does these days and nothing else, even on
 * a Redis shared with `edgelog run`; the ledger's leases keep the two off the same day), waits for all
 * of them, evaluates the alert rules of the zones touched and delivers their notices. Throws
 * InterruptedError when `signal` fires first: the days in progress stop after their page in hand, with
 * their checkpoints kept.
 */
export async function executeSync(
  engine: SyncEngine,
  plan: SyncPlan,
  opts: SyncRunOptions = {},
): Promise<{ summary: SyncSummary; text: string }> {
  const { concurrency, signal, progress } = opts;
  const started = engine.now(); // notices are stamped with the engine's clock
  const wallStart = Date.now();
  const runId = randomUUID().slice(0, 8);
  const runtime = engine.privateRuntime(`sync-${runId}`);
  let outcomes: Array<JobOutcome<DayResult>>;
  let guardian: JobOutcome[];
  try {
    const dayJobs = await runtime.enqueueSync(plan.days, runId);
    const guardianJobs = await runtime.enqueueGuardian(plan.guardianZones, runId);
    runtime.startWorker(concurrency);
    let done = 0;
    const figures = progress ? passTally(engine, plan.days) : undefined;
    const reporter =
      progress && figures
        ? startProgress({
            out: progress,
            // On stderr, the line the log lines clear and redraw (they go to the same terminal).
            ...(progress === process.stderr ? { line: stderrLine } : {}),
            read: () => ({
              done,
              total: plan.days.length,
              ...figures.read(),
              elapsedMs: Date.now() - wallStart,
            }),
          })
        : undefined;
    try {
      outcomes = await runtime.waitFor<DayResult>(dayJobs, signal, () => done++);
    } finally {
      reporter?.stop();
    }
    engine.logger.debug({ jobs: outcomes.length }, 'sync: day jobs finished');
    guardian = await runtime.waitFor(guardianJobs, signal);
    if (signal?.aborted) throw new InterruptedError();
  } finally {
    await runtime.discard();
  }
  // The rows readers read from the store stay few: a flush once they pass FLUSH_ROWS (the day jobs did
  // not wait for one; a few small days stay in the store until then, or until `run` flushes them).
  await engine.history?.flushIfDue(FLUSH_ROWS);
  const alerts = await checkAlerts(engine, plan, started);
  const summary = {
    ...(await summarise(outcomes, guardian, Date.now() - wallStart, engine.store.ledger)),
    alerts,
    ...(opts.retries ? { retries: opts.retries() } : {}),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    historyPeakRssMb: (await engine.history?.peakRssMb()) ?? null,
  };
  let text = renderSummary(
    summary,
    guardian.map((g) => ({ zone: (g.data as { zone: number }).zone, error: g.error })),
    { configFile: configFileName(engine.config), ...(opts.width ? { width: opts.width } : {}) },
  );
  if (alerts.notices > 0) {
    text +=
      `\nalerts: ${alerts.notices} notices, ${alerts.delivered} delivered` +
      `${alerts.pending > 0 ? `, ${alerts.pending} left queued for \`edgelog run\` to retry` : ''}`;
  }
  return { summary, text };
}

/**
 * Pages and entries of the plan's days so far, for a progress line drawn synchronously: each read gives
 * the last figures and starts reading newer ones from the ledger (one read at a time).
 */
function passTally(
  engine: SyncEngine,
  days: readonly DayJob[],
): { read(): { pages: number; entries: number } } {
  let last = { pages: 0, entries: 0 };
  let reading = false;
  return {
    read() {
      if (!reading) {
        reading = true;
        passFigures(engine, days).then(
          (f) => ((last = f), (reading = false)),
          () => (reading = false),
        );
      }
      return last;
    },
  };
}

/** Pages and entries of the plan's days so far, from the ledger (its passes' counts). */
async function passFigures(
  engine: SyncEngine,
  days: readonly DayJob[],
): Promise<{ pages: number; entries: number }> {
  let pages = 0;
  let entries = 0;
  for (const d of days) {
    const row = await engine.store.ledger.get({ source: d.source, zone: d.zone, day: d.day });
    pages += row?.pages ?? 0;
    entries += row?.entries ?? 0;
  }
  return { pages, entries };
}

/** Evaluates the rules of the zones this sync touched and delivers their notices (bounded wait). */
async function checkAlerts(
  engine: SyncEngine,
  plan: SyncPlan,
  since: number,
): Promise<{ notices: number; delivered: number; pending: number }> {
  if (engine.config.alerts.rules.length === 0) return { notices: 0, delivered: 0, pending: 0 };
  const touched = new Map(
    plan.days.map((d) => [`${d.source}-${d.zone}`, { source: d.source, zone: d.zone }]),
  );
  for (const scope of touched.values()) await engine.alerts.check(scope);
  for (const zone of plan.guardianZones) await engine.alerts.check({ source: 'guardian', zone });
  // sql rules read the whole archive: once, after every day is in.
  if (engine.config.alerts.rules.some((r) => r.type === 'sql')) await engine.alerts.check({ source: 'sql' });
  const { notifier } = engine.alerts;
  // Everything this run judges is judged: its groups are complete, no need to wait for their windows.
  await notifier.flushOutbox({ closeAll: true });
  notifier.startWorker();
  // The announced wait covers stopping: deliveries still in flight then (a hook that never answers)
  // are aborted at once and stay queued for `edgelog run`, so closing the engine does not wait on them.
  const { delivered, pending } = await notifier.settleSince(since, SETTLE_TIMEOUT_MS - HAND_BACK_MS);
  await notifier.stopWorker(0);
  return { notices: delivered + pending, delivered, pending };
}

/** How long sync waits for receivers, in all, before leaving undelivered notices to the queue. */
const SETTLE_TIMEOUT_MS = 15_000;

async function summarise(
  outcomes: Array<JobOutcome<DayResult>>,
  guardian: JobOutcome[],
  durationMs: number,
  ledger: Pick<LedgerStore, 'get'>,
): Promise<SyncSummary> {
  const results: SyncDay[] = [];
  for (const o of outcomes) results.push(await summariseDay(o, ledger));
  const sum = (f: (r: SyncDay) => number) => results.reduce((a, r) => a + f(r), 0);
  const count = (outcome: SyncDay['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const failed = count('failed') + guardian.filter((g) => g.error).length;
  const [incomplete, expired] = [count('incomplete'), count('expired')];
  return {
    ok: failed === 0 && expired === 0 && incomplete === 0,
    days: outcomes.length,
    pages: sum((r) => r.pages),
    entries: sum((r) => r.entries),
    newEntries: sum((r) => r.newEntries),
    malformed: sum((r) => r.malformed),
    quarantined: sum((r) => r.quarantined),
    incomplete,
    expired,
    failed,
    guardianSnapshots: guardian.filter((g) => !g.error).length,
    durationMs,
    results,
  };
}

/** One day job's line of the summary; a failed job's figures come from the ledger (what its pass stored). */
async function summariseDay(o: JobOutcome<DayResult>, ledger: Pick<LedgerStore, 'get'>): Promise<SyncDay> {
  if (o.result) {
    const r = o.result;
    return {
      source: r.source,
      zone: r.zone,
      day: r.day,
      outcome: r.outcome,
      state: r.state,
      resumed: r.resumed,
      pages: r.pages,
      entries: r.entries,
      newEntries: r.newEntries,
      malformed: r.malformed,
      quarantined: r.quarantined,
      durationMs: r.durationMs,
      ...(r.error !== undefined ? { error: r.error } : {}),
      ...(r.skipped ? { skipped: true as const } : {}),
    };
  }
  // A failed job: what its pass stored is in the ledger.
  const d = o.data as DayJob;
  const row = await ledger.get({ source: d.source, zone: d.zone, day: d.day });
  return {
    source: d.source,
    zone: d.zone,
    day: d.day,
    outcome: 'failed' as const,
    state: row?.state ?? 'failed',
    resumed: false,
    pages: row?.pages ?? 0,
    entries: row?.entries ?? 0,
    newEntries: row?.new_entries ?? 0,
    malformed: row?.malformed ?? 0,
    quarantined: row?.quarantined ?? 0,
    error: o.error ?? (o.pending ? 'still unfinished' : 'unknown error'),
  };
}
