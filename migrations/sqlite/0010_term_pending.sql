-- term_pending: a page's term counts, appended in the page's transaction and merged into term_hourly
-- (summed, in key order, in one statement) once it holds enough rows (src/store/sqlite/terms.ts).
-- term_hourly's key starts with the value, so a page's new values land all over it: written there
-- directly, a page of origin entries dirtied hundreds of its pages, each one written to the WAL and
-- checkpointed again at every page. Appended here, a page writes a few pages; a merge writes each page of
-- term_hourly it changes once for many pages of entries. term_hourly and term_pending together are the
-- counts: every reader sums both (NEW_TERMS_SQL).
CREATE TABLE term_pending (
  source  TEXT    NOT NULL CHECK (source IN ('origin', 'shield')),
  zone_id INTEGER NOT NULL,
  field   TEXT    NOT NULL,
  value   TEXT    NOT NULL,
  hour    INTEGER NOT NULL,
  count   INTEGER NOT NULL
);
CREATE INDEX term_pending_by_hour ON term_pending (source, zone_id, field, hour);
