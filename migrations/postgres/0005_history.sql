-- The Parquet history's record in the store, as migrations/sqlite/0006 on SQLite (the columns are
-- explained there): one row per (source, zone, day) compacted into files, or being compacted.
CREATE TABLE history_days (
  source              text   NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id             bigint NOT NULL,
  log_date            text   COLLATE "C" NOT NULL,
  entries             bigint,
  quarantined         bigint,
  bytes               bigint,
  checksum            text,
  quarantine_checksum text,
  ledger_entries      bigint,
  ledger_quarantined  bigint,
  compacted_at        bigint,
  pruned_at           bigint,
  lease_owner         text,
  lease_until         bigint,
  PRIMARY KEY (source, zone_id, log_date)
);
