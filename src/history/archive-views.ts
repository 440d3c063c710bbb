// The views over the rollups and snapshots in the archive's dialect (DuckDB): the same names, columns and
// values the store's own views had (migrations/sqlite/0002), so a statement reads them as before.
// Hours and days are ISO-8601 UTC text; the rollups' '' and 0 placeholders are NULL again.
import type { StoreTableName } from '../store/archive-tables.js';

export interface ArchiveView {
  name: string;
  /** The store tables it reads. */
  reads: readonly StoreTableName[];
  sql: string;
  about: string;
}

const hourText = (ms: string) => `strftime(make_timestamp(${ms} * 1000), '%Y-%m-%dT%H:00:00Z')`;
const dayText = (ms: string) => `strftime(make_timestamp(${ms} * 1000), '%Y-%m-%d')`;
const statusClass = `CASE
    WHEN status_code BETWEEN 100 AND 599 THEN (status_code // 100)::VARCHAR || 'xx'
    WHEN status_code = 0 THEN NULL
    ELSE 'other'
  END`;

const COUNTERS = [
  ['total_requests_inspected', 'p_inspected'],
  ['total_blocked_requests', 'p_blocked'],
  ['total_logged_requests', 'p_logged'],
  ['total_rate_limited', 'p_rate_limited'],
  ['total_failed_request_validation', 'p_failed_validation'],
  ['total_failed_authentication_enforcement', 'p_failed_auth'],
] as const;

export const ARCHIVE_VIEWS: readonly ArchiveView[] = [
  {
    name: 'origin_errors_hourly',
    reads: ['origin_hourly'],
    about: 'origin_hourly with ISO hours, a status class and NULLs',
    sql: `SELECT pull_zone_id, ${hourText('hour')} AS hour, ${statusClass} AS status_class,
  nullif(status_code, 0) AS status_code, nullif(error_code, '') AS error_code, count
FROM origin_hourly`,
  },
  {
    name: 'origin_errors_daily',
    reads: ['origin_hourly'],
    about: 'origin errors per zone, UTC day, status and error code',
    sql: `SELECT pull_zone_id, ${dayText('hour')} AS day, ${statusClass} AS status_class,
  nullif(status_code, 0) AS status_code, nullif(error_code, '') AS error_code, sum(count) AS count
FROM origin_hourly
GROUP BY pull_zone_id, ${dayText('hour')}, origin_hourly.status_code, origin_hourly.error_code`,
  },
  {
    name: 'shield_events_hourly',
    reads: ['shield_hourly'],
    about: 'shield_hourly with ISO hours and NULLs',
    sql: `SELECT shield_zone_id, ${hourText('hour')} AS hour, nullif(rule_id, '') AS rule_id,
  nullif(severity, '') AS severity, nullif(status, '') AS status, count
FROM shield_hourly`,
  },
  {
    name: 'shield_events_daily',
    reads: ['shield_hourly'],
    about: 'Shield events per zone, UTC day, rule, severity and status',
    sql: `SELECT shield_zone_id, ${dayText('hour')} AS day, nullif(rule_id, '') AS rule_id,
  nullif(severity, '') AS severity, nullif(status, '') AS status, sum(count) AS count
FROM shield_hourly
GROUP BY shield_zone_id, ${dayText('hour')}, shield_hourly.rule_id, shield_hourly.severity, shield_hourly.status`,
  },
  {
    name: 'api_guardian_deltas',
    reads: ['api_guardian_snapshots'],
    about: "each snapshot's counters and their change since the zone's previous one (a reset counted)",
    sql: `WITH ordered AS (
  SELECT s.*, lag(taken_at) OVER w AS previous_taken_at,
    ${COUNTERS.map(([c, p]) => `lag(${c}) OVER w AS ${p}`).join(',\n    ')}
  FROM api_guardian_snapshots AS s
  WHERE coalesce(${COUNTERS.map(([c]) => c).join(', ')}) IS NOT NULL
  WINDOW w AS (PARTITION BY shield_zone_id ORDER BY taken_at, id)
)
SELECT id, shield_zone_id, taken_at, previous_taken_at,
  ${COUNTERS.map(([c, p]) => `${c}, CASE WHEN ${c} < ${p} THEN ${c} ELSE ${c} - ${p} END AS ${c}_delta`).join(',\n  ')},
  (coalesce(${COUNTERS.map(([c, p]) => `${c} < ${p}`).join(' OR ')}, false))::INTEGER AS reset
FROM ordered`,
  },
];

export const ARCHIVE_VIEW_NAMES: readonly string[] = ARCHIVE_VIEWS.map((v) => v.name);
