// Counts that need the entries themselves (URLs, countries, ASNs…: not in the rollups). Every query is
// bounded by the (zone, timestamp) prefix of the table's unique key, so SQLite reads only the window's
// entries through that index, never the whole table.
import type { Db } from '../store/sqlite/database.js';
import { SHIELD, type ReportScope, type SourceTables, type TopItem } from './sources.js';

/**
 * The zone and time bounds. The zones come as a JSON array so one statement serves one zone or all:
 * `zone IN (json_each)` plus a timestamp range is a multi-range search of the key index.
 */
export function rawBounds(t: SourceTables): string {
  return `${t.zone} IN (SELECT value FROM json_each(@zones)) AND timestamp >= @start AND timestamp < @end`;
}

/** The SQL of rawTop (exported so a test can check its query plan). */
export function rawTopSql(t: SourceTables, column: string): string {
  return `SELECT ${column} AS key, count(*) AS count FROM ${t.raw} WHERE ${rawBounds(t)}
    GROUP BY key ORDER BY count DESC, key LIMIT @limit`;
}

/** One message of a Shield rule's events in the window: the rule's name. */
export const ruleMessageSql = `SELECT message FROM ${SHIELD.raw} WHERE ${rawBounds(SHIELD)}
  AND rule_id = @rule AND message IS NOT NULL LIMIT 1`;

export function rawParams(zones: readonly number[], scope: ReportScope) {
  return { zones: JSON.stringify(zones), start: scope.window.startMs, end: scope.window.endMs };
}

/**
 * The `limit` most frequent values of `column` among the entries of `zones` within the window. `zones`
 * is the scope's zone, or every zone with entries in the window (from the rollup).
 */
export function rawTop(
  db: Db,
  t: SourceTables,
  zones: readonly number[],
  scope: ReportScope,
  column: string,
  limit: number,
): TopItem[] {
  if (zones.length === 0) return [];
  return db.prepare(rawTopSql(t, column)).all({ ...rawParams(zones, scope), limit }) as TopItem[];
}
