// The sample queries `edgelog demo` runs and shows: SQL lives beside the store that owns the tables.
import type { StoreDialect } from './store.js';

/**
 * The sample queries, written to run on both stores; where SQL differs (formatting an epoch in ms), a
 * PostgreSQL twin. Every column not aggregated is grouped on, as PostgreSQL requires.
 */
const SAMPLE_QUERIES: Array<{ title: string; sql: string; postgres?: string }> = [
  {
    title: 'Origin errors by error code and status, all demo zones',
    sql: `SELECT error_code, status_code, count(*) AS errors
FROM origin_error_logs GROUP BY error_code, status_code ORDER BY errors DESC LIMIT 5`,
  },
  {
    title: 'Shield rules that matched most, with the share of critical events',
    sql: `SELECT rule_id, min(message) AS message, count(*) AS events,
round(100.0 * sum(CASE WHEN severity = 'critical' THEN 1 ELSE 0 END) / count(*), 1) AS pct_critical
FROM shield_event_logs GROUP BY rule_id ORDER BY events DESC LIMIT 5`,
  },
  {
    title: 'Origin 5xx per hour in zone 101, last 6 hours archived (from the hourly rollup)',
    sql: `SELECT strftime('%Y-%m-%d %H:00', hour / 1000, 'unixepoch') AS hour_utc, sum(count) AS errors_5xx
FROM origin_hourly WHERE pull_zone_id = 101 AND status_code >= 500
GROUP BY hour ORDER BY hour DESC LIMIT 6`,
    postgres: `SELECT to_char(to_timestamp(hour / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:00') AS hour_utc, sum(count) AS errors_5xx
FROM origin_hourly WHERE pull_zone_id = 101 AND status_code >= 500
GROUP BY hour ORDER BY hour DESC LIMIT 6`,
  },
];

/** The sample queries in the dialect of `dialect`'s store. */
export function sampleQueries(dialect: StoreDialect): Array<{ title: string; sql: string }> {
  return SAMPLE_QUERIES.map((q) => ({
    title: q.title,
    sql: (dialect === 'postgres' && q.postgres) || q.sql,
  }));
}
