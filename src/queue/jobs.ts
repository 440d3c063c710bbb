// Names, payloads and ids of edgelog's jobs. BullMQ ids must not contain ':' nor be all digits.
import type { LogSource } from '../store/ledger-types.js';

/** The queue that fetches and stores logs and metrics. */
export const INGEST_QUEUE = 'ingest';

export type ScheduledSource = LogSource | 'guardian';

/** Decide which days of one zone to fetch now, and enqueue them. */
export interface PlanJob {
  source: LogSource;
  zone: number;
}

/** Fetch one zone-day to exhaustion. */
export interface DayJob {
  source: LogSource;
  zone: number;
  day: string;
  reason: 'refresh' | 'catch-up' | 'sync';
}

/** Snapshot the API Guardian metrics of one shield zone. */
export interface GuardianJob {
  zone: number;
}

/** Daily housekeeping: retention. */
export type MaintenanceJob = Record<string, never>;

/** Compact one settled zone-day into the Parquet history (then prune what may be pruned). */
export interface CompactJob {
  source: LogSource;
  zone: number;
  day: string;
}

/** Find the settled zone-days not yet in history and enqueue a compact job for each. */
export type HistorySweepJob = Record<string, never>;

export type JobName = 'plan' | 'day' | 'guardian' | 'maintenance' | 'alerts' | 'compact' | 'history';

export type JobData = PlanJob | DayJob | GuardianJob | MaintenanceJob | CompactJob | HistorySweepJob;

/** Scheduler ids: one per (source, zone), plus the maintenance one. */
export function schedulerId(source: ScheduledSource, zone: number): string {
  return `${source}-${zone}`;
}

export const MAINTENANCE_SCHEDULER = 'maintenance';

/** Evaluates every alert rule (besides the evaluations after each job). */
export const ALERTS_SCHEDULER = 'alerts';

/** Deduplication id of a scheduled day job: at most one active and one waiting per zone-day. */
export function dayDedupId(job: Pick<DayJob, 'source' | 'zone' | 'day'>): string {
  return `day-${job.source}-${job.zone}-${job.day}`;
}

/** Deduplication id of a compact job: one waiting or active per zone-day, across every worker. */
export function compactDedupId(job: Pick<CompactJob, 'source' | 'zone' | 'day'>): string {
  return `compact-${job.source}-${job.zone}-${job.day}`;
}

/** Deduplication id of the history sweep (enqueued after each plan job: at most one at a time). */
export const HISTORY_SWEEP_ID = 'history-sweep';

/** Job id of a day requested by `edgelog sync` run `runId`. */
export function syncJobId(runId: string, job: Pick<DayJob, 'source' | 'zone' | 'day'>): string {
  return `sync-${runId}-${job.source}-${job.zone}-${job.day}`;
}
