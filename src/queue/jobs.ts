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

export type JobName = 'plan' | 'day' | 'guardian' | 'maintenance' | 'alerts';

export type JobData = PlanJob | DayJob | GuardianJob | MaintenanceJob;

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

/** Job id of a day requested by `edgelog sync` run `runId`. */
export function syncJobId(runId: string, job: Pick<DayJob, 'source' | 'zone' | 'day'>): string {
  return `sync-${runId}-${job.source}-${job.zone}-${job.day}`;
}
