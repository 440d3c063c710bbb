// The scope (zone, window) every report query is bounded by, and what the two log reports open with.
import type { LogSource, ReadScope, ReportReads } from '../store/store.js';
import { denseHistogram, type HistogramBucket, type ReportWindow } from './window.js';

export interface ReportScope {
  /** One zone, or null for every zone. */
  zone: number | null;
  window: ReportWindow;
}

/** The store's form of a scope (store.ts ReadScope). */
export function readScope(scope: ReportScope): ReadScope {
  return { zone: scope.zone, startMs: scope.window.startMs, endMs: scope.window.endMs };
}

export interface ReportParams {
  scope: ReportScope;
  /** Entries per "top" list (for the guardian report: snapshots listed per zone). */
  top: number;
  /**
   * The clock: empty buckets after it are `future`, and those the ledger does not cover `not fetched`.
   * @defaultValue none: every empty bucket is a plain 0
   */
  now?: number;
}

export interface TopItem<K = string | null> {
  /** The value counted; null when the entries did not carry it. */
  key: K;
  count: number;
}

export interface ZoneTotal {
  zone: number;
  count: number;
}

/** The part of a log report both sources share. */
export interface LogReportHead<S extends LogSource> {
  source: S;
  /** The zone asked for, or null for all. */
  zone: number | null;
  window: ReportWindow;
  total: number;
  /** Entries per zone (the zones with entries in the window). */
  zones: ZoneTotal[];
  histogram: HistogramBucket[];
}

/**
 * Reads a log report's head (zones, their totals, the histogram), and returns with it the store's scope
 * and the zones found, which the report's own reads of the entries are bounded by.
 */
export async function logReportHead<S extends LogSource>(
  reads: ReportReads,
  source: S,
  scope: ReportScope,
  now?: number,
): Promise<{ head: LogReportHead<S>; read: ReadScope; zoneIds: number[] }> {
  const read = readScope(scope);
  const zones = await reads.zoneTotals(source, read);
  const known = now === undefined ? undefined : { coverage: await reads.coverage(source, read), now };
  const rows = await reads.buckets(source, read, scope.window.bucketMs);
  const histogram = denseHistogram(scope.window, rows, known);
  const total = zones.reduce((sum, z) => sum + z.count, 0);
  return {
    head: { source, zone: scope.zone, window: scope.window, total, zones, histogram },
    read,
    zoneIds: zones.map((z) => z.zone),
  };
}
