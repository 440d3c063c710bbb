// Counts read from the hourly rollups (origin_hourly, shield_hourly): a few hundred rows per zone and
// week however many entries they count. `keyExpr` arguments are SQL expressions written in this module's
// callers, never user input.
import type { Db } from '../store/sqlite/database.js';
import type { ReportScope, SourceTables, TopItem } from './sources.js';
import { denseHistogram, type HistogramBucket } from './window.js';

/** WHERE clause and parameters bounding a rollup by zone (when given) and hour, along its primary key. */
function bounds(t: SourceTables, scope: ReportScope) {
  const params = { zone: scope.zone, start: scope.window.startMs, end: scope.window.endMs };
  const where = `${scope.zone === null ? '' : `${t.zone} = @zone AND `}hour >= @start AND hour < @end`;
  return { where, params: scope.zone === null ? { start: params.start, end: params.end } : params };
}

export interface ZoneTotal {
  zone: number;
  count: number;
}

/** Entries per zone within the scope, largest first. */
export function zoneTotals(db: Db, t: SourceTables, scope: ReportScope): ZoneTotal[] {
  const { where, params } = bounds(t, scope);
  return db
    .prepare(
      `SELECT ${t.zone} AS zone, sum(count) AS count FROM ${t.rollup} WHERE ${where}
       GROUP BY ${t.zone} ORDER BY count DESC, zone`,
    )
    .all(params) as ZoneTotal[];
}

/** Entries per bucket (hour or day) of the window, empty buckets included. */
export function histogram(db: Db, t: SourceTables, scope: ReportScope): HistogramBucket[] {
  const { where, params } = bounds(t, scope);
  const rows = db
    .prepare(
      `SELECT hour - (hour % @size) AS start, sum(count) AS count FROM ${t.rollup} WHERE ${where}
       GROUP BY start`,
    )
    .all({ ...params, size: scope.window.bucketMs }) as Array<{ start: number; count: number }>;
  return denseHistogram(scope.window, rows);
}

/**
 * The most frequent values of `keyExpr` (an expression over the rollup's columns, NULL for "not
 * given"), largest first; `limit` null returns them all.
 */
export function rollupTop<K extends string | number | null>(
  db: Db,
  t: SourceTables,
  scope: ReportScope,
  keyExpr: string,
  limit: number | null,
): Array<TopItem<K>> {
  const { where, params } = bounds(t, scope);
  return db
    .prepare(
      `SELECT ${keyExpr} AS key, sum(count) AS count FROM ${t.rollup} WHERE ${where}
       GROUP BY key ORDER BY count DESC, key LIMIT @limit`,
    )
    .all({ ...params, limit: limit ?? -1 }) as Array<TopItem<K>>;
}
