// `edgelog sync`: fetch chosen days now, wait, print what happened; exit 0 only if every day succeeded.
import { randomUUID } from 'node:crypto';
import { Command, Option } from 'commander';
import { HAND_BACK_MS } from '../alerts/notifier.js';
import { requireAccessKey, type Config } from '../config/index.js';
import { DEFAULT_CONFIG_FILE } from '../config/load.js';
import { startEngine, type Engine } from '../engine.js';
import { UsageError } from '../errors/index.js';
import { startProgress, stderrLine, type ProgressOutput } from '../format/progress.js';
import type { DayResult } from '../ingest/day-ingestor.js';
import { InterruptedError } from '../ingest/errors.js';
import type { DayJob } from '../queue/jobs.js';
import type { JobOutcome } from '../queue/runtime.js';
import type { LedgerStore, LogSource } from '../store/store.js';
import { dayOf, dayRange, type Day } from '../time/utc-day.js';
import { commandContext, dayArg, idListArg, intArg, printJson } from './shared.js';
import { formatOption, jsonOption, outputFormat } from './args.js';
import { untilSignal } from './signals.js';
import { renderSummary, type SyncDay, type SyncSummary } from './sync-summary.js';

export type { SyncDay, SyncSummary } from './sync-summary.js';

type SyncSource = LogSource | 'guardian';

interface SyncOptions {
  date?: Day;
  from?: Day;
  to?: Day;
  source?: SyncSource[];
  zone?: number[];
  concurrency?: number;
  format?: string;
  json?: boolean;
  /** False with --no-progress. */
  progress?: boolean;
}

/**
 * Pure: the day jobs a sync asks for. Throws UsageError for contradictory options, days in the future
 * or unknown zones.
 */
export function syncPlan(
  config: Config,
  opts: SyncOptions,
  now: number,
): { days: DayJob[]; guardianZones: number[] } {
  if (opts.date && (opts.from || opts.to)) throw new UsageError('use either --date or --from/--to, not both');
  const today = dayOf(now);
  // A day that has not begun has no logs: syncing it would only leave `partial` rows in the ledger.
  for (const [flag, day] of Object.entries({ '--date': opts.date, '--from': opts.from, '--to': opts.to })) {
    if (day && day > today) throw new UsageError(`${flag} ${day} is in the future (today is ${today}, UTC)`);
  }
  const from = opts.date ?? opts.from ?? opts.to ?? today;
  const to = opts.date ?? opts.to ?? (opts.from ? today : from);
  const days = dayRange(from, to);
  if (days.length === 0) throw new UsageError(`--from ${from} is after --to ${to}`);
  if (days.length > 366) throw new UsageError(`${days.length} days asked for; sync at most 366 at a time`);
  const sources = opts.source ?? ['origin', 'shield'];
  const zonesOf = (source: SyncSource) =>
    (source === 'origin' ? config.pullZones : config.shieldZones).map((z) => z.id);
  if (opts.zone) {
    const configured = new Set(sources.flatMap(zonesOf));
    const unknown = opts.zone.filter((z) => !configured.has(z));
    if (unknown.length > 0) {
      throw new UsageError(
        `zone ${unknown.join(', ')} is not configured for ${sources.join('/')} (configured: ${[...configured].join(', ') || 'none'})`,
      );
    }
  }
  const pick = (source: SyncSource) => zonesOf(source).filter((z) => !opts.zone || opts.zone.includes(z));
  // Oldest day first, across every zone: Shield days leave the API's window in that order, and the
  // smallest jobs (today's partial day) come last, where they fill the queue's tail.
  const jobs: DayJob[] = [];
  for (const day of days) {
    for (const source of sources) {
      if (source === 'guardian') continue;
      for (const zone of pick(source)) jobs.push({ source, zone, day, reason: 'sync' });
    }
  }
  return { days: jobs, guardianZones: sources.includes('guardian') ? pick('guardian') : [] };
}

export function syncCommand(): Command {
  return new Command('sync')
    .description('fetch the given UTC days of the configured zones now, wait, and print a summary')
    .option('--date <day>', 'one UTC day, YYYY-MM-DD (default: today)', dayArg)
    .option('--from <day>', 'first UTC day of a range', dayArg)
    .option('--to <day>', 'last UTC day of a range (default: today)', dayArg)
    .addOption(
      new Option('--source <source...>', 'origin, shield and/or guardian (default: origin shield)').choices([
        'origin',
        'shield',
        'guardian',
      ]),
    )
    .option('--zone <id...>', 'only these zone ids (comma-separated or repeated)', idListArg)
    .option('--concurrency <n>', 'jobs at once in this process (default: worker.concurrency)', intArg)
    .addOption(formatOption())
    .addOption(jsonOption())
    .option('--no-progress', 'no progress on stderr (a redrawn line on a terminal, else a line every 10 s)')
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { config, logger } = commandContext(cmd, undefined, { terminalLogLevel: 'warn' });
      const plan = syncPlan(config, opts, Date.now());
      if (plan.days.length === 0 && plan.guardianZones.length === 0) {
        throw new UsageError('no zones to sync: add pullZones / shieldZones to the configuration');
      }
      requireAccessKey(config);
      const concurrency = opts.concurrency || undefined;
      // The store is sized for the jobs this sync runs at once, which may be more than worker.concurrency.
      let retries = 0;
      const engine = await startEngine(config, logger, {
        ...(concurrency ? { concurrency } : {}),
        onRetry: () => retries++,
      });
      const stop = untilSignal();
      const interrupted = new AbortController();
      void stop.promise.then(() => interrupted.abort());
      try {
        let done: Awaited<ReturnType<typeof executeSync>>;
        try {
          done = await executeSync(engine, plan, {
            concurrency,
            signal: interrupted.signal,
            ...(opts.progress === false ? {} : { progress: process.stderr }),
            ...(process.stdout.isTTY && process.stdout.columns ? { width: process.stdout.columns } : {}),
            retries: () => retries,
          });
        } catch (err) {
          if (!(err instanceof InterruptedError)) throw err;
          process.stderr.write(
            'edgelog: interrupted; days in progress keep their checkpoints and resume on the next run\n',
          );
          process.exitCode = 130;
          return;
        }
        if (outputFormat(opts) === 'json') printJson(done.summary);
        else process.stdout.write(`${done.text}\n`);
        if (!done.summary.ok) process.exitCode = 1;
      } finally {
        stop.dispose();
        await engine.close();
        logger.flush();
      }
    });
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
  engine: Engine,
  plan: { days: DayJob[]; guardianZones: number[] },
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
  const alerts = await checkAlerts(engine, plan, started);
  const summary = {
    ...(await summarise(outcomes, guardian, Date.now() - wallStart, engine.store.ledger)),
    alerts,
    ...(opts.retries ? { retries: opts.retries() } : {}),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
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
function passTally(engine: Engine, days: readonly DayJob[]): { read(): { pages: number; entries: number } } {
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
  engine: Engine,
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
  engine: Engine,
  plan: { days: DayJob[]; guardianZones: number[] },
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
