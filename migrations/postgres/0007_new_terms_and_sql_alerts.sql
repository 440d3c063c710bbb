-- Issue 21's judging side (as migrations/sqlite/0008 on SQLite).
--
-- 1. term_hourly: per zone, hour and field, how often each value occurred (src/store/terms.ts says which
--    fields and how a value is keyed). New-term rules ask it "which values of this window did the zone not
--    have in the lookback before it?" without reading the entries. Written in the page's transaction, as
--    the hourly rollups are; filled here from the entries already archived. The two functions below are
--    this session's own (pg_temp) and do what src/store/storable.ts rollupKey and src/store/terms.ts
--    pathPrefix do for the writers (test/postgres/terms-backfill.test.ts compares them).
-- 2. alert_series_state: the state of a sql rule's alerts, one per distinct set of labels (a row of its
--    statement), beside alert_state's one per (rule, zone).

CREATE TABLE term_hourly (
  source  text   NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id bigint NOT NULL,
  field   text   NOT NULL,   -- an entry column, or path:<depth>
  value   text   NOT NULL,   -- bounded as rollup keys are (storable.ts rollupKey)
  hour    bigint NOT NULL,   -- ms, start of the UTC hour
  count   bigint NOT NULL,
  PRIMARY KEY (source, zone_id, field, value, hour)
);
CREATE INDEX term_hourly_by_hour ON term_hourly (source, zone_id, field, hour);

-- A value longer than 256 bytes: its first whole characters within 200 bytes, '…', 16 hex digits of its SHA-256.
CREATE FUNCTION pg_temp.edgelog_rollup_key(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v IS NULL OR octet_length(v) <= 256 THEN v ELSE
    (SELECT left(v, max(n)) FROM generate_series(0, 200) AS n WHERE octet_length(left(v, n)) <= 200)
    || '…' || left(encode(sha256(convert_to(v, 'UTF8')), 'hex'), 16) END
$$;

-- The first `depth` non-empty segments of the URL's path (scheme and host, query and fragment dropped).
CREATE FUNCTION pg_temp.edgelog_path_prefix(url text, depth int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT '/' || coalesce(string_agg(seg, '/' ORDER BY n), '') FROM (
    SELECT seg, n FROM unnest(string_to_array(split_part(split_part(
        regexp_replace(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), '?', 1), '#', 1), '/'))
      WITH ORDINALITY AS t(seg, n)
    WHERE seg <> '' ORDER BY n LIMIT depth) AS s
$$;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'origin', pull_zone_id, f.field, pg_temp.edgelog_rollup_key(f.v), timestamp - timestamp % 3600000, count(*)
  FROM origin_error_logs,
       LATERAL (VALUES ('error_code', error_code), ('status_code', status_code::text)) AS f(field, v)
  WHERE f.v IS NOT NULL AND f.v <> ''
  GROUP BY 2, 3, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'origin', pull_zone_id, 'path:' || d.depth,
         pg_temp.edgelog_rollup_key(pg_temp.edgelog_path_prefix(request_url, d.depth)),
         timestamp - timestamp % 3600000, count(*)
  FROM origin_error_logs, (VALUES (1), (2), (3)) AS d(depth)
  WHERE request_url IS NOT NULL AND request_url <> ''
  GROUP BY 2, 3, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'shield', shield_zone_id, f.field, pg_temp.edgelog_rollup_key(f.v), timestamp - timestamp % 3600000, count(*)
  FROM shield_event_logs,
       LATERAL (VALUES ('country', country), ('asn', asn), ('rule_id', rule_id), ('severity', severity),
                       ('method', method)) AS f(field, v)
  WHERE f.v IS NOT NULL AND f.v <> ''
  GROUP BY 2, 3, 4, 5;

INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT 'shield', shield_zone_id, 'path:' || d.depth,
         pg_temp.edgelog_rollup_key(pg_temp.edgelog_path_prefix(url, d.depth)),
         timestamp - timestamp % 3600000, count(*)
  FROM shield_event_logs, (VALUES (1), (2), (3)) AS d(depth)
  WHERE url IS NOT NULL AND url <> ''
  GROUP BY 2, 3, 4, 5;

DROP FUNCTION pg_temp.edgelog_rollup_key(text);
DROP FUNCTION pg_temp.edgelog_path_prefix(text, int);

CREATE TABLE alert_series_state (
  rule               text   NOT NULL,
  series             text   NOT NULL,   -- the row's labels as canonical JSON (sorted keys)
  labels             text   NOT NULL,   -- the same, kept for display
  state              text   NOT NULL CHECK (state IN ('inactive', 'pending', 'firing', 'resolved')),
  since              bigint NOT NULL,
  fingerprint        text   NOT NULL,
  first_evaluated_at bigint NOT NULL,
  last_evaluated_at  bigint NOT NULL,
  last_notified_at   bigint,
  last_value         double precision,
  last_detail        text,
  PRIMARY KEY (rule, series)
);
