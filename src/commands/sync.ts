// `edgelog sync`: fetch chosen days now, wait, print what happened; exit 0 only if every day succeeded.
import { Command, Option } from 'commander';
import type { Config } from '../config/index.js';
import { startEngine, type Engine } from '../engine.js';
import { UsageError } from '../errors/index.js';
import { elapsed, formatTable, thousands } from '../format/table.js';
import type { DayResult } from '../ingest/day-ingestor.js';
import type { DayJob } from '../queue/jobs.js';
import type { JobOutcome } from '../queue/runtime.js';
import type { LogSource } from '../store/ledger.repository.js';
import { dayOf, dayRange, type Day } from '../time/utc-day.js';
import { commandContext, dayArg, idListArg, intArg, printJson } from './shared.js';
import { untilSignal } from './signals.js';

type SyncSource = LogSource | 'guardian';

interface SyncOptions {
  date?: Day;
  from?: Day;
  to?: Day;
  source?: SyncSource[];
  zone?: number[];
  concurrency?: number;
  json?: boolean;
}

/** Pure: the day jobs a sync asks for. Throws UsageError for contradictory options or unknown zones. */
export function syncPlan(
  config: Config,
  opts: SyncOptions,
  now: number,
): { days: DayJob[]; guardianZones: number[] } {
  if (opts.date && (opts.from || opts.to)) throw new UsageError('use either --date or --from/--to, not both');
  const today = dayOf(now);
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
    .option('--json', 'print the summary as JSON')
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { config, logger } = commandContext(cmd, undefined, { terminalLogLevel: 'warn' });
      const plan = syncPlan(config, opts, Date.now());
      if (plan.days.length === 0 && plan.guardianZones.length === 0) {
        throw new UsageError('no zones to sync: add pullZones / shieldZones to the configuration');
      }
      const engine = await startEngine(config, logger);
      const stop = untilSignal();
      try {
        const done = await Promise.race([
          executeSync(engine, plan, opts.concurrency || undefined),
          stop.promise.then(() => null),
        ]);
        if (done === null) {
          process.stderr.write(
            'edgelog: interrupted; days in progress keep their checkpoints and resume on the next run\n',
          );
          process.exitCode = 130;
          return;
        }
        if (opts.json) printJson(done.summary);
        else process.stdout.write(`${done.text}\n`);
        if (!done.summary.ok) process.exitCode = 1;
      } finally {
        stop.dispose();
        await engine.close();
        logger.flush();
      }
    });
}

/**
 * Enqueues the plan's days, works them in this process (another `edgelog run` may take some), waits for
 * all of them, evaluates the alert rules of the zones touched and delivers their notices.
 */
export async function executeSync(
  engine: Engine,
  plan: { days: DayJob[]; guardianZones: number[] },
  concurrency?: number,
): Promise<{ summary: SyncSummary; text: string }> {
  const started = engine.now(); // notices are stamped with the engine's clock
  const wallStart = Date.now();
  const dayJobs = await engine.runtime.enqueueSync(plan.days);
  const guardianJobs = await engine.runtime.enqueueGuardian(plan.guardianZones);
  engine.runtime.startWorker(concurrency);
  const outcomes = await engine.runtime.waitFor<DayResult>(dayJobs);
  engine.logger.debug({ jobs: outcomes.length }, 'sync: day jobs finished');
  const guardian = await engine.runtime.waitFor(guardianJobs);
  const alerts = await checkAlerts(engine, plan, started);
  const summary = {
    ...summarise(outcomes, guardian, Date.now() - wallStart),
    alerts,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  let text = renderSummary(outcomes, guardian, summary);
  if (alerts.notices > 0) {
    text +=
      `\nalerts: ${alerts.notices} notices, ${alerts.delivered} delivered` +
      `${alerts.pending > 0 ? `, ${alerts.pending} left queued for \`edgelog run\` to retry` : ''}`;
  }
  return { summary, text };
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
  engine.alerts.notifier.startWorker();
  const { delivered, pending } = await engine.alerts.notifier.settleSince(since, SETTLE_TIMEOUT_MS);
  return { notices: delivered + pending, delivered, pending };
}

/** How long sync waits for receivers before leaving undelivered notices to the queue. */
const SETTLE_TIMEOUT_MS = 15_000;

export interface SyncSummary {
  ok: boolean;
  days: number;
  pages: number;
  entries: number;
  newEntries: number;
  malformed: number;
  expired: number;
  failed: number;
  guardianSnapshots: number;
  durationMs: number;
  results: Array<DayResult | { source: string; zone: number; day: string; state: 'failed'; error: string }>;
  alerts?: { notices: number; delivered: number; pending: number };
  /** This process's peak resident memory so far, in MiB. */
  peakRssMb?: number;
}

function summarise(
  outcomes: Array<JobOutcome<DayResult>>,
  guardian: JobOutcome[],
  durationMs: number,
): SyncSummary {
  const results: SyncSummary['results'] = outcomes.map((o) => {
    if (o.result) return o.result;
    const d = o.data as DayJob;
    return {
      source: d.source,
      zone: d.zone,
      day: d.day,
      state: 'failed' as const,
      error: o.error ?? 'unknown error',
    };
  });
  const done = outcomes.flatMap((o) => (o.result ? [o.result] : []));
  const sum = (f: (r: DayResult) => number) => done.reduce((a, r) => a + f(r), 0);
  const failed = results.filter((r) => r.state === 'failed').length + guardian.filter((g) => g.error).length;
  const expired = done.filter((r) => r.state === 'expired').length;
  return {
    ok: failed === 0 && expired === 0,
    days: outcomes.length,
    pages: sum((r) => r.pages),
    entries: sum((r) => r.entries),
    newEntries: sum((r) => r.newEntries),
    malformed: sum((r) => r.malformed),
    expired,
    failed,
    guardianSnapshots: guardian.filter((g) => !g.error).length,
    durationMs,
    results,
  };
}

function renderSummary(
  outcomes: Array<JobOutcome<DayResult>>,
  guardian: JobOutcome[],
  s: SyncSummary,
): string {
  const table = formatTable(
    [
      { header: 'source', value: (r) => r.source },
      { header: 'zone', value: (r) => r.zone, right: true },
      { header: 'day', value: (r) => r.day },
      { header: 'state', value: (r) => r.state },
      { header: 'pages', value: (r) => ('pages' in r ? r.pages : ''), right: true },
      { header: 'entries', value: (r) => ('entries' in r ? thousands(r.entries) : ''), right: true },
      { header: 'new', value: (r) => ('newEntries' in r ? thousands(r.newEntries) : ''), right: true },
      { header: 'malformed', value: (r) => ('malformed' in r ? r.malformed : ''), right: true },
      { header: 'time', value: (r) => ('durationMs' in r ? elapsed(r.durationMs) : ''), right: true },
      { header: 'error', value: (r) => ('error' in r ? r.error : '') },
    ],
    s.results,
    100,
  );
  const lines = outcomes.length > 0 ? [table] : [];
  for (const g of guardian) {
    const zone = (g.data as { zone: number }).zone;
    lines.push(g.error ? `guardian ${zone}: failed: ${g.error}` : `guardian ${zone}: snapshot stored`);
  }
  lines.push(
    `${s.days} days, ${thousands(s.pages)} pages, ${thousands(s.entries)} entries, ${thousands(s.newEntries)} new, ` +
      `${thousands(s.malformed)} malformed, ${s.expired} expired, ${s.failed} failed in ${elapsed(s.durationMs)}`,
  );
  return lines.join('\n');
}
