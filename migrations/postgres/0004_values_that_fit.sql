-- Every value stored as it fits, on both stores alike (src/store/storable.ts), as migrations/0005 on
-- SQLite: api_guardian_snapshots.counters (the six counters as the API sent them, JSON), counter columns
-- NULL outside 0 to 2^53 - 1 (the value they held moves to `counters`), and status codes outside 0–9999
-- NULL in origin_error_logs (the entry's `log` keeps the value), their rollup counts moved to the
-- "no status" key 0. Before this, such a status code (2^60, say) failed `report origin` (beyond 2^53).

ALTER TABLE api_guardian_snapshots ADD COLUMN counters text;

UPDATE api_guardian_snapshots SET
  counters = json_build_object(
    'totalBlockedRequests', total_blocked_requests,
    'totalLoggedRequests', total_logged_requests,
    'totalRateLimited', total_rate_limited,
    'totalRequestsInspected', total_requests_inspected,
    'totalFailedRequestValidation', total_failed_request_validation,
    'totalFailedAuthenticationEnforcement', total_failed_authentication_enforcement)::text,
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

-- The entries, found through the rollup's hours along the entry key (zone, timestamp, log_id).
UPDATE origin_error_logs AS e SET status_code = NULL
FROM (SELECT DISTINCT pull_zone_id, hour FROM origin_hourly WHERE status_code NOT BETWEEN 0 AND 9999) AS h
WHERE e.pull_zone_id = h.pull_zone_id AND e.timestamp >= h.hour AND e.timestamp < h.hour + 3600000
  AND e.status_code NOT BETWEEN 0 AND 9999;

INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
  SELECT pull_zone_id, hour, 0, error_code, sum(count) FROM origin_hourly
  WHERE status_code NOT BETWEEN 0 AND 9999
  GROUP BY pull_zone_id, hour, error_code
  ON CONFLICT (pull_zone_id, hour, status_code, error_code)
  DO UPDATE SET count = origin_hourly.count + excluded.count;

DELETE FROM origin_hourly WHERE status_code NOT BETWEEN 0 AND 9999;
