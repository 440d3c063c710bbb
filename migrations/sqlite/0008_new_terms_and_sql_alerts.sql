-- Issue 21's judging side.
--
-- 1. term_hourly: per zone, hour and field, how often each value occurred (src/store/terms.ts says which
--    fields and how a value is keyed). New-term rules ask it "which values of this window did the zone not
--    have in the lookback before it?" without reading the entries. Written in the page's transaction, as
--    the hourly rollups are; filled here from the entries already archived, through the functions the
--    writers use (registered on the connection by the migration runner: edgelog_rollup_key,
--    edgelog_path_prefix).
-- 2. alert_series_state: the state of a sql rule's alerts, one per distinct set of labels (a row of its
--    statement), beside alert_state's one per (rule, zone).

CREATE TABLE term_hourly (
  source  TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id INTEGER NOT NULL,
  field   TEXT    NOT NULL,   -- an entry column, or path:<depth>
  value   TEXT    NOT NULL,   -- bounded as rollup keys are (storable.ts rollupKey)
  hour    INTEGER NOT NULL,   -- ms, start of the UTC hour
  count   INTEGER NOT NULL,
  PRIMARY KEY (source, zone_id, field, value, hour)
) WITHOUT ROWID;
CREATE INDEX term_hourly_by_hour ON term_hourly (source, zone_id, field, hour);

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'origin', pull_zone_id, 'error_code', edgelog_rollup_key(error_code),
         timestamp - timestamp % 3600000, count(*)
  FROM origin_error_logs WHERE error_code IS NOT NULL AND error_code <> ''
  GROUP BY 2, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'origin', pull_zone_id, 'status_code', CAST(status_code AS TEXT),
         timestamp - timestamp % 3600000, count(*)
  FROM origin_error_logs WHERE status_code IS NOT NULL
  GROUP BY 2, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'origin', pull_zone_id, 'path:' || d.depth,
         edgelog_rollup_key(edgelog_path_prefix(request_url, d.depth)),
         timestamp - timestamp % 3600000, count(*)
  FROM origin_error_logs, (SELECT 1 AS depth UNION ALL SELECT 2 UNION ALL SELECT 3) AS d
  WHERE request_url IS NOT NULL AND request_url <> ''
  GROUP BY 2, 3, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'shield', shield_zone_id, f.field,
         edgelog_rollup_key(CASE f.field WHEN 'country' THEN country WHEN 'asn' THEN asn
           WHEN 'rule_id' THEN rule_id WHEN 'severity' THEN severity ELSE method END) AS v,
         timestamp - timestamp % 3600000, count(*)
  FROM shield_event_logs,
       (SELECT 'country' AS field UNION ALL SELECT 'asn' UNION ALL SELECT 'rule_id'
        UNION ALL SELECT 'severity' UNION ALL SELECT 'method') AS f
  WHERE v IS NOT NULL AND v <> ''
  GROUP BY 2, 3, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'shield', shield_zone_id, 'path:' || d.depth,
         edgelog_rollup_key(edgelog_path_prefix(url, d.depth)),
         timestamp - timestamp % 3600000, count(*)
  FROM shield_event_logs, (SELECT 1 AS depth UNION ALL SELECT 2 UNION ALL SELECT 3) AS d
  WHERE url IS NOT NULL AND url <> ''
  GROUP BY 2, 3, 4, 5;

CREATE TABLE alert_series_state (
  rule               TEXT    NOT NULL,
  series             TEXT    NOT NULL,   -- the row's labels as canonical JSON (sorted keys)
  labels             TEXT    NOT NULL,   -- the same, kept for display
  state              TEXT    NOT NULL CHECK (state IN ('inactive', 'pending', 'firing', 'resolved')),
  since              INTEGER NOT NULL,
  fingerprint        TEXT    NOT NULL,
  first_evaluated_at INTEGER NOT NULL,
  last_evaluated_at  INTEGER NOT NULL,
  last_notified_at   INTEGER,
  last_value         REAL,
  last_detail        TEXT,
  PRIMARY KEY (rule, series)
) WITHOUT ROWID;
