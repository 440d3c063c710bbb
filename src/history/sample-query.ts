// The questions `edgelog demo` asks and shows as `edgelog query` commands: in the archive's dialect
// (DuckDB's SQL, over the history's files and the newer rows), so a user can copy any of them.

/** Asked right after the sync, before anything is compacted. */
export const DEMO_SAMPLE_QUERIES: ReadonlyArray<{ title: string; sql: string }> = [
  {
    title: 'Origin errors by error code and status, all demo zones',
    sql: 'SELECT error_code, status_code, count(*) AS errors FROM origin_error_logs GROUP BY error_code, status_code ORDER BY errors DESC LIMIT 5',
  },
  {
    title: 'Shield rules that matched most, with the share of critical events',
    sql: "SELECT rule_id, min(message) AS message, count(*) AS events, round(100.0 * sum(CASE WHEN severity = 'critical' THEN 1 ELSE 0 END) / count(*), 1) AS pct_critical FROM shield_event_logs GROUP BY rule_id ORDER BY events DESC LIMIT 5",
  },
  {
    title: 'Origin 5xx per hour in zone 101, last 6 hours archived (from the hourly rollup)',
    sql: "SELECT strftime(epoch_ms(hour), '%Y-%m-%d %H:00') AS hour_utc, sum(count) AS errors_5xx FROM origin_hourly WHERE pull_zone_id = 101 AND status_code >= 500 GROUP BY hour ORDER BY hour DESC LIMIT 6",
  },
];

/** Asked once the settled days are in the history. */
export const HISTORY_SAMPLE_QUERY = {
  title: 'Shield events per day, answered from the history (and the rows not yet in it)',
  sql: 'SELECT log_date, count(*) AS entries, count(DISTINCT country) AS countries FROM shield_event_logs GROUP BY log_date ORDER BY log_date',
};
