-- Views over the hourly rollups and the API Guardian snapshots, so any SQLite tool can answer the common
-- questions without knowing how the rollups are stored. Times are ISO-8601 UTC text; the rollups' ''/0
-- stand-ins for a missing attribute are NULL again, as in the entry tables.

-- Origin errors per zone and hour, by status class, status code and error code: "what failed, when?".
-- Sum `count` over the columns you do not group by, e.g. per hour and status class.
CREATE VIEW origin_errors_hourly AS
SELECT
  pull_zone_id,
  strftime('%Y-%m-%dT%H:00:00Z', hour / 1000, 'unixepoch') AS hour,
  CASE
    WHEN status_code BETWEEN 100 AND 599 THEN (status_code / 100) || 'xx'
    WHEN status_code = 0 THEN NULL
    ELSE 'other'
  END AS status_class,
  NULLIF(status_code, 0) AS status_code,
  NULLIF(error_code, '') AS error_code,
  count
FROM origin_hourly;

-- Origin errors per zone and UTC day, by status class, status code and error code: "how did each day go?".
CREATE VIEW origin_errors_daily AS
SELECT
  pull_zone_id,
  strftime('%Y-%m-%d', hour / 1000, 'unixepoch') AS day,
  CASE
    WHEN status_code BETWEEN 100 AND 599 THEN (status_code / 100) || 'xx'
    WHEN status_code = 0 THEN NULL
    ELSE 'other'
  END AS status_class,
  NULLIF(status_code, 0) AS status_code,
  NULLIF(error_code, '') AS error_code,
  sum(count) AS count
FROM origin_hourly
GROUP BY pull_zone_id, day, origin_hourly.status_code, origin_hourly.error_code;

-- Shield (WAF) events per zone and hour, by rule, severity and status: "what did the WAF catch, when?".
CREATE VIEW shield_events_hourly AS
SELECT
  shield_zone_id,
  strftime('%Y-%m-%dT%H:00:00Z', hour / 1000, 'unixepoch') AS hour,
  NULLIF(rule_id, '') AS rule_id,
  NULLIF(severity, '') AS severity,
  NULLIF(status, '') AS status,
  count
FROM shield_hourly;

-- Shield (WAF) events per zone and UTC day, by rule, severity and status.
CREATE VIEW shield_events_daily AS
SELECT
  shield_zone_id,
  strftime('%Y-%m-%d', hour / 1000, 'unixepoch') AS day,
  NULLIF(rule_id, '') AS rule_id,
  NULLIF(severity, '') AS severity,
  NULLIF(status, '') AS status,
  sum(count) AS count
FROM shield_hourly
GROUP BY shield_zone_id, day, shield_hourly.rule_id, shield_hourly.severity, shield_hourly.status;

-- Each API Guardian snapshot that holds counters (failed calls are left out) with each counter's change
-- since the zone's previous such snapshot: "how fast is each counter growing?". `<counter>_delta` is NULL
-- for a zone's first snapshot (or a missing value); when a counter went down it was reset, so its delta is
-- the new value (its growth since the reset) instead of a negative number, and `reset` is 1.
CREATE VIEW api_guardian_deltas AS
WITH ordered AS (
  SELECT
    s.*,
    lag(taken_at) OVER w AS previous_taken_at,
    lag(total_requests_inspected) OVER w AS p_inspected,
    lag(total_blocked_requests) OVER w AS p_blocked,
    lag(total_logged_requests) OVER w AS p_logged,
    lag(total_rate_limited) OVER w AS p_rate_limited,
    lag(total_failed_request_validation) OVER w AS p_failed_validation,
    lag(total_failed_authentication_enforcement) OVER w AS p_failed_auth
  FROM api_guardian_snapshots AS s
  WHERE coalesce(total_requests_inspected, total_blocked_requests, total_logged_requests, total_rate_limited,
                 total_failed_request_validation, total_failed_authentication_enforcement) IS NOT NULL
  WINDOW w AS (PARTITION BY shield_zone_id ORDER BY taken_at, id)
)
SELECT
  id,
  shield_zone_id,
  taken_at,
  previous_taken_at,
  total_requests_inspected,
  CASE WHEN total_requests_inspected < p_inspected THEN total_requests_inspected
       ELSE total_requests_inspected - p_inspected END AS total_requests_inspected_delta,
  total_blocked_requests,
  CASE WHEN total_blocked_requests < p_blocked THEN total_blocked_requests
       ELSE total_blocked_requests - p_blocked END AS total_blocked_requests_delta,
  total_logged_requests,
  CASE WHEN total_logged_requests < p_logged THEN total_logged_requests
       ELSE total_logged_requests - p_logged END AS total_logged_requests_delta,
  total_rate_limited,
  CASE WHEN total_rate_limited < p_rate_limited THEN total_rate_limited
       ELSE total_rate_limited - p_rate_limited END AS total_rate_limited_delta,
  total_failed_request_validation,
  CASE WHEN total_failed_request_validation < p_failed_validation THEN total_failed_request_validation
       ELSE total_failed_request_validation - p_failed_validation END AS total_failed_request_validation_delta,
  total_failed_authentication_enforcement,
  CASE WHEN total_failed_authentication_enforcement < p_failed_auth THEN total_failed_authentication_enforcement
       ELSE total_failed_authentication_enforcement - p_failed_auth END AS total_failed_authentication_enforcement_delta,
  coalesce(
    total_requests_inspected < p_inspected OR total_blocked_requests < p_blocked
      OR total_logged_requests < p_logged OR total_rate_limited < p_rate_limited
      OR total_failed_request_validation < p_failed_validation
      OR total_failed_authentication_enforcement < p_failed_auth,
    0) AS reset
FROM ordered;
