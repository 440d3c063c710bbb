// The origin report's data: error counts by status, error code, URL and server zone, and over time.
import type { Db } from '../store/sqlite/database.js';
import { rawTop } from './raw-queries.js';
import { histogram, rollupTop, zoneTotals, type ZoneTotal } from './rollup-queries.js';
import { ORIGIN, type ReportParams, type TopItem } from './sources.js';
import type { HistogramBucket, ReportWindow } from './window.js';

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

// origin_hourly stores a missing status as 0 and a missing error code as '' (they are key columns).
const STATUS_CLASS = `CASE WHEN status_code BETWEEN 100 AND 599 THEN (status_code / 100) || 'xx'
  WHEN status_code = 0 THEN NULL ELSE 'other' END`;

export function buildOriginReport(db: Db, { scope, top }: ReportParams): OriginReport {
  return db.transaction(() => {
    const zones = zoneTotals(db, ORIGIN, scope);
    const zoneIds = zones.map((z) => z.zone);
    return {
      source: 'origin' as const,
      zone: scope.zone,
      window: scope.window,
      total: zones.reduce((sum, z) => sum + z.count, 0),
      zones,
      histogram: histogram(db, ORIGIN, scope),
      statusClasses: rollupTop<string | null>(db, ORIGIN, scope, STATUS_CLASS, null),
      statusCodes: rollupTop<number | null>(db, ORIGIN, scope, 'NULLIF(status_code, 0)', top),
      errorCodes: rollupTop<string | null>(db, ORIGIN, scope, "NULLIF(error_code, '')", top),
      requestUrls: rawTop(db, ORIGIN, zoneIds, scope, 'request_url', top),
      serverZones: rawTop(db, ORIGIN, zoneIds, scope, 'server_zone', top),
    };
  })();
}
