// What each job does. Plain functions of their dependencies, so tests can call them directly.
import type { Job } from 'bullmq';
import type { ApiClient } from '../api/index.js';
import type { Config } from '../config/index.js';
import { InlineApiError } from '../errors/index.js';
import type { DayIngestor, DayResult } from '../ingest/day-ingestor.js';
import type { Logger } from '../logger.js';
import type { ArchiveStore, LedgerRow } from '../store/store.js';
import type { HistoryWork } from '../history/history-process.js';
import { DAY_MS, dayOf, dayStartMs, parseDay } from '../time/utc-day.js';
import { dayDedupId, type DayJob, type GuardianJob, type PlanJob } from './jobs.js';
import { planDays } from './planner.js';

export interface HandlerDeps {
  config: Config;
  client: Pick<ApiClient, 'apiGuardianMetrics'>;
  ingestor: DayIngestor;
  store: ArchiveStore;
  /** Enqueues day jobs (the ingest queue). */
  enqueueDays: (jobs: DayJob[]) => Promise<void>;
  logger: Logger;
  now: () => number;
  /** Called after each day job, e.g. to evaluate alert rules for that zone. */
  afterDay?: (result: DayResult) => Promise<void>;
  /** Called after each guardian snapshot. */
  afterGuardian?: (zone: number) => Promise<void>;
  /** Runs the scheduled evaluation of every alert rule. */
  evaluateAlerts?: () => Promise<unknown>;
  /** The Parquet history's compactions; absent when history.path is null. */
  history?: HistoryWork;
}

export interface PlanResult {
  enqueued: string[];
}

function zoneConfigured(config: Config, source: 'origin' | 'shield' | 'guardian', zone: number): boolean {
  const zones = source === 'origin' ? config.pullZones : config.shieldZones;
  return zones.some((z) => z.id === zone);
}

export async function runPlan(deps: HandlerDeps, job: PlanJob): Promise<PlanResult> {
  if (!zoneConfigured(deps.config, job.source, job.zone)) {
    deps.logger.info({ ...job }, 'zone no longer configured; nothing planned');
    return { enqueued: [] };
  }
  // Each plan makes the archive ready for the days ahead (PostgreSQL: their partitions) before any
  // page of them comes.
  await deps.store.prepareAhead(deps.now());
  const rows = await deps.store.ledger.list({ source: job.source, zone: job.zone });
  const states = new Map(rows.map((r) => [r.log_date, r.state]));
  const { schedule } = deps.config;
  const days = planDays({
    now: deps.now(),
    lookbackDays: job.source === 'shield' ? schedule.shieldLookbackDays : schedule.originLookbackDays,
    states,
  });
  await deps.enqueueDays(
    days.map((d) => ({ source: job.source, zone: job.zone, day: d.day, reason: d.reason })),
  );
  return { enqueued: days.map((d) => d.day) };
}

export interface DayRunOptions {
  owner: string;
  signal?: AbortSignal | undefined;
  finalAttempt: boolean;
  /** When the job was made (ms). @defaultValue never skip */
  enqueuedAt?: number;
}

/**
 * Pure: whether a day job has nothing left to do, so that a day is fetched once however many workers
 * plan it. A pass that started after the job was made and reached the end of the day's data fetched all
 * the job would have. Besides: a catch-up job finds its day complete (another worker's catch-up did it),
 * or a refresh of today finds a pass finished since it was planned (refreshed within the hour).
 */
export function alreadyFetched(
  row: LedgerRow | undefined,
  reason: DayJob['reason'],
  enqueuedAt: number | undefined,
): boolean {
  if (!row || enqueuedAt === undefined || row.lease_owner !== null || row.next_token !== null) return false;
  if (reason === 'catch-up' && row.state === 'complete') return true;
  const finished =
    row.finished_at !== null && row.pass_started_at !== null && row.finished_at >= row.pass_started_at;
  if (!finished) return false;
  if (row.pass_started_at! >= enqueuedAt) return true;
  return reason === 'refresh' && row.finished_at! >= enqueuedAt;
}

export async function runDay(deps: HandlerDeps, job: DayJob, opts: DayRunOptions): Promise<DayResult> {
  const key = { source: job.source, zone: job.zone, day: job.day };
  const row = await deps.store.ledger.get(key);
  if (alreadyFetched(row, job.reason, opts.enqueuedAt)) {
    deps.logger.debug({ ...key }, 'day already fetched since this job was made; skipped');
    return skippedResult(row!);
  }
  const result = await deps.ingestor.run(
    { source: job.source, zone: job.zone, day: parseDay(job.day) },
    { owner: opts.owner, signal: opts.signal, finalAttempt: opts.finalAttempt },
  );
  await deps.afterDay?.(result);
  return result;
}

function skippedResult(row: LedgerRow): DayResult {
  return {
    source: row.source,
    zone: row.zone_id,
    day: row.log_date,
    outcome: row.state === 'complete' ? 'complete' : 'partial',
    state: row.state,
    resumed: false,
    pages: 0,
    entries: 0,
    newEntries: 0,
    malformed: 0,
    quarantined: 0,
    archived: row.archived_entries,
    archivedQuarantined: row.quarantined_entries,
    skipped: true,
    durationMs: 0,
  };
}

export interface GuardianResult {
  zone: number;
  snapshotId: number;
  totalBlockedRequests: number | null;
}

export async function runGuardian(
  deps: HandlerDeps,
  job: GuardianJob,
  signal?: AbortSignal,
): Promise<GuardianResult> {
  const takenAt = new Date(deps.now());
  try {
    const metrics = await deps.client.apiGuardianMetrics(job.zone, { signal });
    const snapshotId = await deps.store.guardian.add(job.zone, takenAt, metrics);
    await deps.afterGuardian?.(job.zone);
    return { zone: job.zone, snapshotId, totalBlockedRequests: metrics.data?.totalBlockedRequests ?? null };
  } catch (err) {
    // Keep a trace of an inline failure (e.g. unknown zone) in the snapshots table, then fail the job.
    if (err instanceof InlineApiError) {
      await deps.store.guardian.add(job.zone, takenAt, null, {
        success: false,
        errorKey: err.errorKey,
        message: err.apiMessage,
      });
    }
    throw err;
  }
}

export interface MaintenanceResult {
  prunedOrigin: number;
  prunedShield: number;
  cutoffDay: string | null;
}

/**
 * Retention: removes the entries fetched for days older than `database.retentionDays` (null keeps
 * everything) from the store and the history alike (history/retention.ts).
 */
export async function runMaintenance(deps: HandlerDeps): Promise<MaintenanceResult> {
  const days = deps.config.database.retentionDays;
  if (days === null) return { prunedOrigin: 0, prunedShield: 0, cutoffDay: null };
  const cutoff = dayStartMs(dayOf(deps.now())) - days * DAY_MS;
  const pruned = deps.history
    ? await deps.history.expire(cutoff)
    : await deps.store.prune(cutoff, deps.now());
  const result = { prunedOrigin: pruned.origin, prunedShield: pruned.shield, cutoffDay: dayOf(cutoff) };
  deps.logger.info(result, 'retention applied');
  return result;
}

/** Options for day jobs enqueued by plan jobs: at most one active and one waiting per zone-day. */
export function scheduledDayJobOptions(job: DayJob): {
  deduplication: { id: string; keepLastIfActive: true };
} {
  return { deduplication: { id: dayDedupId(job), keepLastIfActive: true } };
}

export type AnyJob = Job<unknown, unknown, string>;
