-- Every entry the API sent is archived or accounted for.
--
-- 1. quarantined_entries: an entry that cannot be keyed (no usable logId or timestamp, or not an
--    object at all) is kept here with its JSON as received, instead of failing its whole page.
-- 2. ingest_ledger gains the day's totals over every pass (archived_entries, quarantined_entries), the
--    pass's quarantined count, and the state `incomplete` (a pass stored what the API sent, but the API's
--    paging broke off or its answer said it held more). SQLite cannot change a CHECK constraint in place,
--    so the table is rebuilt; the totals of existing days are counted from the entry tables.

CREATE TABLE quarantined_entries (
  id            INTEGER PRIMARY KEY,
  source        TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id       INTEGER NOT NULL,
  log_date      TEXT    NOT NULL,                   -- the UTC day it was fetched for, YYYY-MM-DD
  raw           TEXT    NOT NULL,                   -- the entry's JSON as received
  raw_hash      TEXT    NOT NULL,                   -- SHA-256 of raw, hex
  reason        TEXT    NOT NULL,                   -- why it could not be keyed
  page          INTEGER NOT NULL,                   -- Shield: the page of the day it came on; origin: 0
  position      INTEGER NOT NULL,                   -- its index in that page's (or origin answer's) logs
  first_seen_at INTEGER NOT NULL                    -- ms
);
-- An entry without a key of its own is keyed by where it came (a re-fetch of the day serves it at the
-- same place, and adds nothing) and by its text (two identical entries at two places are both kept; an
-- entry that moved is kept twice rather than lost).
CREATE UNIQUE INDEX quarantined_entries_key
  ON quarantined_entries (source, zone_id, log_date, page, position, raw_hash);

CREATE TABLE ingest_ledger_new (
  source              TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id             INTEGER NOT NULL,
  log_date            TEXT    NOT NULL,
  state               TEXT    NOT NULL
                      CHECK (state IN ('running', 'partial', 'complete', 'incomplete', 'failed', 'expired')),
  -- The pass in progress, or the last one.
  pass_started_at     INTEGER,
  next_token          TEXT,                         -- Shield checkpoint: token of the next page ('' = first)
  pages               INTEGER NOT NULL DEFAULT 0,
  entries             INTEGER NOT NULL DEFAULT 0,   -- entries the API sent in this pass
  new_entries         INTEGER NOT NULL DEFAULT 0,   -- of which were archived now (not already there)
  malformed           INTEGER NOT NULL DEFAULT 0,   -- of which had an embedded log that is not a JSON object
  quarantined         INTEGER NOT NULL DEFAULT 0,   -- of which could not be keyed (quarantined_entries)
  first_ts            INTEGER,
  last_ts             INTEGER,
  -- The day, over every pass.
  archived_entries    INTEGER NOT NULL DEFAULT 0,   -- rows this day added to its entry table
  quarantined_entries INTEGER NOT NULL DEFAULT 0,   -- rows this day added to quarantined_entries
  covered_until       INTEGER,
  last_error          TEXT,
  lease_owner         TEXT,
  lease_until         INTEGER,
  updated_at          INTEGER NOT NULL,
  finished_at         INTEGER,
  PRIMARY KEY (source, zone_id, log_date)
) WITHOUT ROWID;

INSERT INTO ingest_ledger_new
  (source, zone_id, log_date, state, pass_started_at, next_token, pages, entries, new_entries, malformed,
   first_ts, last_ts, covered_until, last_error, lease_owner, lease_until, updated_at, finished_at)
SELECT source, zone_id, log_date, state, pass_started_at, next_token, pages, entries, new_entries, malformed,
       first_ts, last_ts, covered_until, last_error, lease_owner, lease_until, updated_at, finished_at
FROM ingest_ledger;

-- One scan of each entry table (not one per ledger row).
UPDATE ingest_ledger_new SET archived_entries = c.n
FROM (SELECT pull_zone_id AS zone, log_date AS day, count(*) AS n FROM origin_error_logs GROUP BY 1, 2) AS c
WHERE ingest_ledger_new.source = 'origin' AND ingest_ledger_new.zone_id = c.zone
  AND ingest_ledger_new.log_date = c.day;
UPDATE ingest_ledger_new SET archived_entries = c.n
FROM (SELECT shield_zone_id AS zone, log_date AS day, count(*) AS n FROM shield_event_logs GROUP BY 1, 2) AS c
WHERE ingest_ledger_new.source = 'shield' AND ingest_ledger_new.zone_id = c.zone
  AND ingest_ledger_new.log_date = c.day;

DROP TABLE ingest_ledger;
ALTER TABLE ingest_ledger_new RENAME TO ingest_ledger;
