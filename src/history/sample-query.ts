// The question `edgelog demo` answers from the history (DuckDB's SQL, over the files and the newer rows).
export const HISTORY_SAMPLE_QUERY = {
  title: 'Shield events per day, answered from the history (and the rows not yet in it)',
  sql: 'SELECT log_date, count(*) AS entries, count(DISTINCT country) AS countries FROM shield_event_logs GROUP BY log_date ORDER BY log_date',
};
