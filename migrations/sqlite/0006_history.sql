-- The Parquet history's record in the store (README "History"; src/history/): one row per (source, zone,
-- day) compacted into files, or being compacted. The files are the truth of what is readable; this row
-- says what was verified when they were published (rows, bytes, checksum over the entry keys), which
-- ledger totals they were made from (a later pass that changes them calls for a re-compaction), and when
-- the day's rows left the store. A lease (lease_owner, lease_until) keeps two workers, on any host, from
-- compacting or pruning one day at once. PostgreSQL's migration 0005 makes the same table.
CREATE TABLE history_days (
  source              TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id             INTEGER NOT NULL,
  log_date            TEXT    NOT NULL,
  entries             INTEGER,          -- rows in the entry file (0: no entry file)
  quarantined         INTEGER,          -- rows in the quarantine file (0: no quarantine file)
  bytes               INTEGER,          -- both files' size
  checksum            TEXT,             -- over the entry keys (zone, timestamp, log_id): src/history/checksum.ts
  quarantine_checksum TEXT,             -- over the quarantine keys
  ledger_entries      INTEGER,          -- the ledger's archived_entries when compacted
  ledger_quarantined  INTEGER,          -- the ledger's quarantined_entries when compacted
  compacted_at        INTEGER,          -- ms; NULL while a first compaction is under way
  pruned_at           INTEGER,          -- ms: when the day's rows left the store
  lease_owner         TEXT,
  lease_until         INTEGER,          -- ms
  PRIMARY KEY (source, zone_id, log_date)
) WITHOUT ROWID;
