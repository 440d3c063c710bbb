// Pure: which UTC days a report covers and how its histogram is bucketed.
import { UsageError } from '../errors/index.js';
import { HOUR_MS } from '../store/hourly-rollup.js';
import { addDays, dayEndMs, dayOf, dayRange, dayStartMs, DAY_MS, type Day } from '../time/utc-day.js';

export type BucketSize = 'hour' | 'day';

/** Days covered when neither --from nor --to is given: the last seven, today included. */
export const DEFAULT_DAYS = 7;
/** Ranges up to this many days get hourly buckets; longer ones daily buckets. */
export const HOURLY_MAX_DAYS = 3;

export interface ReportWindow {
  /** First day, included. */
  from: Day;
  /** Last day, included. */
  to: Day;
  days: number;
  /** [startMs, endMs): the first millisecond of `from` to the first after `to`. */
  startMs: number;
  endMs: number;
  bucket: BucketSize;
  bucketMs: number;
}

export interface WindowOptions {
  from?: Day | undefined;
  to?: Day | undefined;
  /** The clock, for "today". */
  now: number;
}

/**
 * --from and --to as given; a missing --to is today, a missing --from is six days before --to (so the
 * default is the last seven UTC days including today). Throws UsageError when --from is after --to.
 */
export function reportWindow(opts: WindowOptions): ReportWindow {
  const to = opts.to ?? dayOf(opts.now);
  const from = opts.from ?? addDays(to, 1 - DEFAULT_DAYS);
  if (from > to) {
    throw new UsageError(
      `--from ${from} is after --to ${to}${opts.to ? '' : ' (today)'}: the range must run forward`,
    );
  }
  const days = dayRange(from, to).length;
  const bucket: BucketSize = days <= HOURLY_MAX_DAYS ? 'hour' : 'day';
  return {
    from,
    to,
    days,
    startMs: dayStartMs(from),
    endMs: dayEndMs(to),
    bucket,
    bucketMs: bucket === 'hour' ? HOUR_MS : DAY_MS,
  };
}

export interface HistogramBucket {
  /** The bucket's first instant, ISO-8601 UTC (`2024-10-15T13:00:00Z`). */
  start: string;
  count: number;
  /**
   * An empty bucket whose emptiness is not known: `not fetched` (the archive does not cover it: the day
   * was never fetched, or not that far) or `future` (it has not begun). Absent for a bucket that is known,
   * and for any bucket with entries.
   */
  status?: BucketStatus;
}

export type BucketStatus = 'not fetched' | 'future';

/** What is known of the window's days: how far each is covered (see ReportReads.coverage), and now. */
export interface Known {
  coverage: ReadonlyMap<string, number>;
  now: number;
}

/** Pure: why an empty bucket [start, end) is not known to be empty, or undefined when it is. */
export function bucketStatus(start: number, end: number, known: Known): BucketStatus | undefined {
  if (start >= known.now) return 'future';
  // Every day the bucket spans must be covered to its end (or to now, for the hours still running).
  const until = Math.min(end, known.now);
  for (let day = start - (start % DAY_MS); day < until; day += DAY_MS) {
    const covered = known.coverage.get(new Date(day).toISOString().slice(0, 10)) ?? -Infinity;
    if (covered < Math.min(until, day + DAY_MS)) return 'not fetched';
  }
  return undefined;
}

/** `2024-10-15T13:00:00Z`: the form the SQL views use too. */
export function isoHour(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * Every bucket of the window in order, empty ones as 0, from sparse (bucket start ms, count) rows.
 * Rows outside the window are ignored. With `known`, an empty bucket the archive does not cover, or
 * that has not begun, says so (HistogramBucket.status).
 */
export function denseHistogram(
  window: Pick<ReportWindow, 'startMs' | 'endMs' | 'bucketMs'>,
  rows: ReadonlyArray<{ start: number; count: number }>,
  known?: Known,
): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.start, (counts.get(r.start) ?? 0) + r.count);
  const buckets: HistogramBucket[] = [];
  for (let ms = window.startMs; ms < window.endMs; ms += window.bucketMs) {
    const count = counts.get(ms) ?? 0;
    const status = count === 0 && known ? bucketStatus(ms, ms + window.bucketMs, known) : undefined;
    buckets.push({ start: isoHour(ms), count, ...(status ? { status } : {}) });
  }
  return buckets;
}
