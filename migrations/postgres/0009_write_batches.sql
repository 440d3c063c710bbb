-- Where recent rows live, as migrations/sqlite/0012 (explained there). On PostgreSQL a page's
-- transaction takes ROW EXCLUSIVE on write_batch, then its batch number from write_batch_seq (no cache:
-- numbers in the order they are taken); the entry and quarantine rows take it as their default
-- (currval: a writer that took no number fails instead of storing rows no flush would find). A flush
-- takes SHARE on write_batch, which waits for the page transactions holding a number and keeps new ones
-- out, reads the sequence, and lets go: every batch up to that number has committed.
CREATE SEQUENCE write_batch_seq NO CYCLE;
CREATE TABLE write_batch (id int PRIMARY KEY CHECK (id = 1));
INSERT INTO write_batch (id) VALUES (1);

-- Adding a column without a default, then setting one, rewrites nothing: the rows stored before keep NULL.
ALTER TABLE origin_error_logs ADD COLUMN batch bigint;
ALTER TABLE shield_event_logs ADD COLUMN batch bigint;
ALTER TABLE quarantined_entries ADD COLUMN batch bigint;
ALTER TABLE origin_error_logs ALTER COLUMN batch SET DEFAULT currval('write_batch_seq');
ALTER TABLE shield_event_logs ALTER COLUMN batch SET DEFAULT currval('write_batch_seq');
ALTER TABLE quarantined_entries ALTER COLUMN batch SET DEFAULT currval('write_batch_seq');
CREATE INDEX origin_error_logs_batch ON origin_error_logs (batch, id) WHERE batch IS NOT NULL;
CREATE INDEX shield_event_logs_batch ON shield_event_logs (batch, id) WHERE batch IS NOT NULL;
CREATE INDEX quarantined_entries_batch ON quarantined_entries (batch, id) WHERE batch IS NOT NULL;

CREATE TABLE history_flush (
  id          int    PRIMARY KEY CHECK (id = 1),
  below       bigint NOT NULL DEFAULT 0,
  flushed_at  bigint,
  lease_owner text,
  lease_until bigint
);
INSERT INTO history_flush (id) VALUES (1);

ALTER TABLE history_days ADD COLUMN part text;
ALTER TABLE history_days ADD COLUMN quarantine_part text;
-- Entries a damaged or lost part of a pruned day held (edgelog compact --verify): gone from every reader,
-- counted here so that status, /metrics and the exit code say so.
ALTER TABLE history_days ADD COLUMN lost_entries bigint;
ALTER TABLE history_days ADD COLUMN lost_at bigint;

ALTER TABLE ingest_ledger ADD COLUMN retention_removed_at bigint;
