// The origin report's data: error counts by status, error code, URL and server zone, and over time.
import type { ReportReads } from '../store/store.js';
import { logReportHead, type LogReportHead, type ReportParams, type TopItem } from './sources.js';

export interface OriginReport extends LogReportHead<'origin'> {
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
  { scope, top, now }: ReportParams,
): Promise<OriginReport> {
  const { head, read: s, zoneIds } = await logReportHead(reads, 'origin', scope, now);
  return {
    ...head,
    statusClasses: (await reads.rollupTop('origin', s, 'status_class', null)) as TopItem[],
    statusCodes: (await reads.rollupTop('origin', s, 'status_code', top)) as Array<TopItem<number | null>>,
    errorCodes: (await reads.rollupTop('origin', s, 'error_code', top)) as TopItem[],
    requestUrls: await reads.rawTop('origin', zoneIds, s, 'request_url', top),
    serverZones: await reads.rawTop('origin', zoneIds, s, 'server_zone', top),
  };
}
