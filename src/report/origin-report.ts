// The origin report's data: error counts by status, error code, URL and server zone, and over time.
import type { ReportReads } from '../store/store.js';
import { readScope, type ReportParams, type TopItem } from './sources.js';
import { denseHistogram, type HistogramBucket, type ReportWindow } from './window.js';

export interface ZoneTotal {
  zone: number;
  count: number;
}

export interface OriginReport {
  source: 'origin';
  /** The zone asked for, or null for all. */
  zone: number | null;
  window: ReportWindow;
  total: number;
  /** Errors per zone (the zones with errors in the window). */
  zones: ZoneTotal[];
  histogram: HistogramBucket[];
  /** `4xx`, `5xx`…; null for entries without a status code. */
  statusClasses: TopItem[];
  statusCodes: Array<TopItem<number | null>>;
  errorCodes: TopItem[];
  requestUrls: TopItem[];
  serverZones: TopItem[];
}

/** Reads the report from one snapshot of the archive (`reads`): rollups, and the entries for URLs and zones. */
export async function buildOriginReport(
  reads: ReportReads,
  { scope, top }: ReportParams,
): Promise<OriginReport> {
  const s = readScope(scope);
  const zones = await reads.zoneTotals('origin', s);
  const zoneIds = zones.map((z) => z.zone);
  return {
    source: 'origin' as const,
    zone: scope.zone,
    window: scope.window,
    total: zones.reduce((sum, z) => sum + z.count, 0),
    zones,
    histogram: denseHistogram(scope.window, await reads.buckets('origin', s, scope.window.bucketMs)),
    statusClasses: (await reads.rollupTop('origin', s, 'status_class', null)) as TopItem[],
    statusCodes: (await reads.rollupTop('origin', s, 'status_code', top)) as Array<TopItem<number | null>>,
    errorCodes: (await reads.rollupTop('origin', s, 'error_code', top)) as TopItem[],
    requestUrls: await reads.rawTop('origin', zoneIds, s, 'request_url', top),
    serverZones: await reads.rawTop('origin', zoneIds, s, 'server_zone', top),
  };
}
