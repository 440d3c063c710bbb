-- Where recent rows live (docs/ARCHITECTURE.md, "Where an entry lives"): every row stored from now on
-- carries the write batch that stored it, a number that grows with every page's transaction. The history
-- flushes the rows of the batches below a watermark into small immutable Parquet parts; a reader reads
-- the parts and, from the store, only the rows at or above the watermark (the index below finds them).
-- Rows stored before this migration keep NULL: the first flush writes them into parts, all at once.
-- Batch 0 marks rows put back into the store from the history (a pruned day fetched again): they are in
-- the parts already, and below every watermark.
ALTER TABLE origin_error_logs ADD COLUMN batch INTEGER;
ALTER TABLE shield_event_logs ADD COLUMN batch INTEGER;
ALTER TABLE quarantined_entries ADD COLUMN batch INTEGER;
CREATE INDEX origin_error_logs_batch ON origin_error_logs (batch) WHERE batch IS NOT NULL;
CREATE INDEX shield_event_logs_batch ON shield_event_logs (batch) WHERE batch IS NOT NULL;
CREATE INDEX quarantined_entries_batch ON quarantined_entries (batch) WHERE batch IS NOT NULL;

-- The last batch number handed out: one writer at a time on SQLite, so a page's transaction takes the
-- next one and every batch up to `last` has committed once a reader sees it.
CREATE TABLE write_batch (
  id   INTEGER PRIMARY KEY CHECK (id = 1),
  last INTEGER NOT NULL
);
INSERT INTO write_batch (id, last) VALUES (1, 0);

-- The flush's lease (one flusher at a time, on any host) and what it last did. The history's own
-- `_flushed_<n>` marker is the truth readers go by; `below` repeats it for status and metrics.
CREATE TABLE history_flush (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  below       INTEGER NOT NULL DEFAULT 0,
  flushed_at  INTEGER,
  lease_owner TEXT,
  lease_until INTEGER
);
INSERT INTO history_flush (id) VALUES (1);

-- The part files a day's record (entries, bytes, checksums) describes: the ones a merge wrote.
ALTER TABLE history_days ADD COLUMN part TEXT;
ALTER TABLE history_days ADD COLUMN quarantine_part TEXT;
-- Entries a damaged or lost part of a pruned day held (edgelog compact --verify): gone from every reader,
-- counted here so that status, /metrics and the exit code say so.
ALTER TABLE history_days ADD COLUMN lost_entries INTEGER;
ALTER TABLE history_days ADD COLUMN lost_at INTEGER;

-- When retention (database.retentionDays) removed the day's entries from the store and the history.
ALTER TABLE ingest_ledger ADD COLUMN retention_removed_at INTEGER;
