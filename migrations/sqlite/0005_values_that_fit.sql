-- Every value stored as it fits, on both stores alike (src/store/storable.ts; README "Every entry archived
-- or accounted for"). PostgreSQL's migration 0004 does the same.
--
-- 1. api_guardian_snapshots.counters: the six counters as the API sent them (JSON), beside their columns,
--    which hold a counter only when it is a whole number from 0 to 2^53 - 1 (NULL otherwise). Snapshots
--    taken before keep NULL there, except those with a counter outside that range: the value their
--    column held moves here.
-- 2. A status code outside 0–9999 (an earlier edgelog stored 1e21 and 2^60 from an entry's `log`, which
--    keeps the value) is NULL in origin_error_logs, and its rollup counts move to the "no status" key 0,
--    as a new entry's would. The entries are found through the rollup's hours, along the entry key.

ALTER TABLE api_guardian_snapshots ADD COLUMN counters TEXT;

UPDATE api_guardian_snapshots SET
  counters = json_object(
    'totalBlockedRequests', total_blocked_requests,
    'totalLoggedRequests', total_logged_requests,
    'totalRateLimited', total_rate_limited,
    'totalRequestsInspected', total_requests_inspected,
    'totalFailedRequestValidation', total_failed_request_validation,
    'totalFailedAuthenticationEnforcement', total_failed_authentication_enforcement),
  total_blocked_requests = CASE WHEN total_blocked_requests BETWEEN 0 AND 9007199254740991
    THEN total_blocked_requests END,
  total_logged_requests = CASE WHEN total_logged_requests BETWEEN 0 AND 9007199254740991
    THEN total_logged_requests END,
  total_rate_limited = CASE WHEN total_rate_limited BETWEEN 0 AND 9007199254740991
    THEN total_rate_limited END,
  total_requests_inspected = CASE WHEN total_requests_inspected BETWEEN 0 AND 9007199254740991
    THEN total_requests_inspected END,
  total_failed_request_validation = CASE WHEN total_failed_request_validation BETWEEN 0 AND 9007199254740991
    THEN total_failed_request_validation END,
  total_failed_authentication_enforcement = CASE
    WHEN total_failed_authentication_enforcement BETWEEN 0 AND 9007199254740991
    THEN total_failed_authentication_enforcement END
WHERE total_blocked_requests NOT BETWEEN 0 AND 9007199254740991
   OR total_logged_requests NOT BETWEEN 0 AND 9007199254740991
   OR total_rate_limited NOT BETWEEN 0 AND 9007199254740991
   OR total_requests_inspected NOT BETWEEN 0 AND 9007199254740991
   OR total_failed_request_validation NOT BETWEEN 0 AND 9007199254740991
   OR total_failed_authentication_enforcement NOT BETWEEN 0 AND 9007199254740991;

CREATE TEMP TABLE edgelog_odd_status_hours AS
  SELECT DISTINCT pull_zone_id, hour FROM origin_hourly WHERE status_code NOT BETWEEN 0 AND 9999;

UPDATE origin_error_logs SET status_code = NULL
WHERE id IN (
  SELECT e.id FROM edgelog_odd_status_hours AS h
  JOIN origin_error_logs AS e
    ON e.pull_zone_id = h.pull_zone_id AND e.timestamp >= h.hour AND e.timestamp < h.hour + 3600000
  WHERE e.status_code NOT BETWEEN 0 AND 9999);

INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
  SELECT pull_zone_id, hour, 0, error_code, sum(count) FROM origin_hourly
  WHERE status_code NOT BETWEEN 0 AND 9999
  GROUP BY pull_zone_id, hour, error_code
  ON CONFLICT (pull_zone_id, hour, status_code, error_code) DO UPDATE SET count = count + excluded.count;

DELETE FROM origin_hourly WHERE status_code NOT BETWEEN 0 AND 9999;

DROP TABLE edgelog_odd_status_hours;
