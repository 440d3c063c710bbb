// What reports read, on SQLite (the ReportReads of store.ts): counts from the hourly rollups (a few
// hundred rows per zone and week however many entries they count), top values from the entries within a
// window, bounded by the (zone, timestamp) prefix of the entry key so that only the window is read, and
// guardian snapshots. Each read settles at once (better-sqlite3 is synchronous).
import type { LogSource } from '../ledger-types.js';
import type {
  GuardianSnapshotRow,
  RawDimension,
  ReadScope,
  ReportReads,
  ReportStore,
  RollupDimension,
  TopItem,
} from '../store.js';
import { dayOf } from '../../time/utc-day.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import type { Db } from './database.js';

const DIMENSIONS: Record<RollupDimension, string> = {
  status_class: `CASE WHEN status_code BETWEEN 100 AND 599 THEN (status_code / 100) || 'xx'
    WHEN status_code = 0 THEN NULL ELSE 'other' END`,
  status_code: 'NULLIF(status_code, 0)',
  error_code: "NULLIF(error_code, '')",
  rule_id: "NULLIF(rule_id, '')",
  severity: "NULLIF(severity, '')",
  status: "NULLIF(status, '')",
};

// An async function turns a synchronous throw into a rejected promise.
// eslint-disable-next-line @typescript-eslint/require-await
const settle = async <T>(work: () => T): Promise<T> => work();

/** The SQL of rawTop (exported so a test can check its query plan). */
export function rawTopSql(source: LogSource, column: RawDimension): string {
  const t = ENTRY_TABLES[source];
  return `SELECT ${column} AS key, count(*) AS count FROM ${t.table}
    WHERE ${t.zoneColumn} IN (SELECT value FROM json_each(@zones)) AND timestamp >= @start AND timestamp < @end
    GROUP BY key ORDER BY count DESC, key LIMIT @limit`;
}

/** One message of a Shield rule's events in the window: the rule's name. */
export const RULE_MESSAGE_SQL = `SELECT message FROM shield_event_logs
  WHERE shield_zone_id IN (SELECT value FROM json_each(@zones)) AND timestamp >= @start
    AND timestamp < @end AND rule_id = @rule AND message IS NOT NULL LIMIT 1`;

/**
 * Reports on `db` (a read-only connection of its own): every read inside one read transaction, so that
 * a report is one consistent snapshot while the worker keeps writing.
 */
export function sqliteReportStore(db: Db): ReportStore {
  return {
    async snapshot(read) {
      db.exec('BEGIN');
      try {
        return await read(sqliteReportReads(db));
      } finally {
        if (db.inTransaction) db.exec('COMMIT');
      }
    },
  };
}

function bounds(source: LogSource, scope: ReadScope) {
  const t = ENTRY_TABLES[source];
  const where = `${scope.zone === null ? '' : `${t.zoneColumn} = @zone AND `}hour >= @start AND hour < @end`;
  const params = {
    start: scope.startMs,
    end: scope.endMs,
    ...(scope.zone === null ? {} : { zone: scope.zone }),
  };
  return { t, where, params };
}

export function sqliteReportReads(db: Db): ReportReads {
  return {
    zoneTotals: (source, scope) =>
      settle(() => {
        const { t, where, params } = bounds(source, scope);
        return db
          .prepare(
            `SELECT ${t.zoneColumn} AS zone, sum(count) AS count FROM ${t.rollup.table} WHERE ${where}
             GROUP BY ${t.zoneColumn} ORDER BY count DESC, zone`,
          )
          .all(params) as Array<{ zone: number; count: number }>;
      }),
    buckets: (source, scope, bucketMs) =>
      settle(() => {
        const { t, where, params } = bounds(source, scope);
        return db
          .prepare(
            `SELECT hour - (hour % @size) AS start, sum(count) AS count FROM ${t.rollup.table} WHERE ${where}
             GROUP BY start ORDER BY start`,
          )
          .all({ ...params, size: bucketMs }) as Array<{ start: number; count: number }>;
      }),
    rollupTop: (source, scope, dimension, limit) =>
      settle(() => {
        const { t, where, params } = bounds(source, scope);
        return db
          .prepare(
            `SELECT ${DIMENSIONS[dimension]} AS key, sum(count) AS count FROM ${t.rollup.table} WHERE ${where}
             GROUP BY key ORDER BY count DESC, key LIMIT @limit`,
          )
          .all({ ...params, limit: limit ?? -1 }) as Array<TopItem<string | number | null>>;
      }),
    rawTop: (source, zones, scope, column: RawDimension, limit) =>
      settle(() => {
        if (zones.length === 0) return [];
        return db
          .prepare(rawTopSql(source, column))
          .all({ zones: JSON.stringify(zones), start: scope.startMs, end: scope.endMs, limit }) as TopItem[];
      }),
    ruleMessage: (zones, scope, ruleId) =>
      settle(() => {
        if (zones.length === 0) return null;
        const row = db
          .prepare(RULE_MESSAGE_SQL)
          .get({ zones: JSON.stringify(zones), start: scope.startMs, end: scope.endMs, rule: ruleId }) as
          { message: string } | undefined;
        return row?.message ?? null;
      }),
    guardianSnapshots: (scope) =>
      settle(
        () =>
          db
            .prepare(
              `SELECT * FROM api_guardian_snapshots
               WHERE (@zone IS NULL OR shield_zone_id = @zone) AND taken_at >= @start AND taken_at < @end
               ORDER BY shield_zone_id, taken_at, id`,
            )
            .all({
              zone: scope.zone,
              start: new Date(scope.startMs).toISOString(),
              end: new Date(scope.endMs).toISOString(),
            }) as GuardianSnapshotRow[],
      ),
    coverage: (source, scope) =>
      settle(() => {
        const rows = db
          .prepare(
            `SELECT log_date, max(covered_until) AS covered_until FROM ingest_ledger
             WHERE source = @source AND (@zone IS NULL OR zone_id = @zone) AND covered_until IS NOT NULL
               AND log_date >= @from AND log_date <= @to
             GROUP BY log_date`,
          )
          .all({
            source,
            zone: scope.zone,
            from: dayOf(scope.startMs),
            to: dayOf(scope.endMs - 1),
          }) as Array<{
          log_date: string;
          covered_until: number;
        }>;
        return new Map(rows.map((r) => [r.log_date, r.covered_until]));
      }),
  };
}
