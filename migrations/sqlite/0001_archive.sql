-- The archive: one row per log entry, the ingestion ledger, and API Guardian snapshots.
--
-- Keys: an entry is unique per (zone, log_id). Its timestamp never changes, so the unique key is
-- (zone, timestamp, log_id): a day's inserts then land together near the end of the index instead of at
-- random places (a unique index on the random UUID alone cut the write rate several-fold), and the same
-- index serves "a zone's entries over time". `time` is computed from `timestamp` on read.

CREATE TABLE origin_error_logs (
  id           INTEGER PRIMARY KEY,
  pull_zone_id INTEGER NOT NULL,
  log_id       TEXT    NOT NULL,
  log_date     TEXT    NOT NULL,                       -- the UTC day it was fetched for, YYYY-MM-DD
  timestamp    INTEGER NOT NULL,                       -- milliseconds since the epoch, UTC
  time         TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', timestamp / 1000.0, 'unixepoch')) VIRTUAL,
  request_url  TEXT,
  message      TEXT,
  error_code   TEXT,
  status_code  INTEGER,
  server_zone  TEXT,
  log          TEXT,                                   -- the embedded JSON exactly as received
  labels       TEXT,                                   -- the labels object, as JSON
  parse_error  TEXT                                    -- why `log` could not be parsed, else NULL
);
CREATE UNIQUE INDEX origin_error_logs_key ON origin_error_logs (pull_zone_id, timestamp, log_id);

CREATE TABLE shield_event_logs (
  id             INTEGER PRIMARY KEY,
  shield_zone_id INTEGER NOT NULL,
  log_id         TEXT    NOT NULL,
  log_date       TEXT    NOT NULL,
  timestamp      INTEGER NOT NULL,
  time           TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', timestamp / 1000.0, 'unixepoch')) VIRTUAL,
  asn            TEXT,
  country        TEXT,
  rule_id        TEXT,
  severity       TEXT,
  method         TEXT,
  rule_group     TEXT,
  status         TEXT,
  server_zone    TEXT,
  url            TEXT,
  remote_ip      TEXT,
  message        TEXT,
  log            TEXT,                                 -- the embedded JSON exactly as received
  parse_error    TEXT,
  extra_labels   TEXT                                  -- labels beyond the eight documented ones, as JSON, else NULL
);
CREATE UNIQUE INDEX shield_event_logs_key ON shield_event_logs (shield_zone_id, timestamp, log_id);

-- Hourly rollups, maintained in the same transaction as the entries they count (only new entries are
-- counted), so reports and alert rules read a few hundred rows instead of scanning millions.
-- `hour` is the hour's first millisecond; NULL attributes are stored as '' / 0 to fit the key.
CREATE TABLE origin_hourly (
  pull_zone_id INTEGER NOT NULL,
  hour         INTEGER NOT NULL,
  status_code  INTEGER NOT NULL,
  error_code   TEXT    NOT NULL,
  count        INTEGER NOT NULL,
  PRIMARY KEY (pull_zone_id, hour, status_code, error_code)
) WITHOUT ROWID;

CREATE TABLE shield_hourly (
  shield_zone_id INTEGER NOT NULL,
  hour           INTEGER NOT NULL,
  rule_id        TEXT    NOT NULL,
  severity       TEXT    NOT NULL,
  status         TEXT    NOT NULL,
  count          INTEGER NOT NULL,
  PRIMARY KEY (shield_zone_id, hour, rule_id, severity, status)
) WITHOUT ROWID;

-- One row per (source, zone, day): where its ingestion stands, and the checkpoint a resumed job
-- continues from. A page's entries and this row's checkpoint commit in one transaction.
CREATE TABLE ingest_ledger (
  source          TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id         INTEGER NOT NULL,
  log_date        TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('running', 'partial', 'complete', 'failed', 'expired')),
  pass_started_at INTEGER,          -- ms: when the current (or last) pass began
  next_token      TEXT,             -- Shield: token of the next page of the pass in progress ('' = first)
  pages           INTEGER NOT NULL DEFAULT 0,
  entries         INTEGER NOT NULL DEFAULT 0,   -- entries seen by the current (or last) pass
  new_entries     INTEGER NOT NULL DEFAULT 0,   -- of which were not yet archived
  malformed       INTEGER NOT NULL DEFAULT 0,   -- of which had an embedded log that is not valid JSON
  first_ts        INTEGER,
  last_ts         INTEGER,
  covered_until   INTEGER,          -- ms: everything the API held for this day before this instant is archived
  last_error      TEXT,
  lease_owner     TEXT,             -- who is paging this day now (a job id)
  lease_until     INTEGER,          -- ms; a lease past this instant is free to take
  updated_at      INTEGER NOT NULL,
  finished_at     INTEGER,          -- ms: end of the last finished pass
  PRIMARY KEY (source, zone_id, log_date)
) WITHOUT ROWID;

CREATE TABLE api_guardian_snapshots (
  id                                   INTEGER PRIMARY KEY,
  shield_zone_id                       INTEGER NOT NULL,
  taken_at                             TEXT    NOT NULL,   -- ISO-8601 UTC
  total_blocked_requests               INTEGER,
  total_logged_requests                INTEGER,
  total_rate_limited                   INTEGER,
  total_requests_inspected             INTEGER,
  total_failed_request_validation      INTEGER,
  total_failed_authentication_enforcement INTEGER,
  overview                             TEXT,              -- overviewPastTwentyEightDays, as JSON
  error                                TEXT               -- the inline error object, as JSON
);
CREATE INDEX api_guardian_snapshots_zone_time ON api_guardian_snapshots (shield_zone_id, taken_at);
