-- Term counts derived from the entries (src/store/sqlite/terms.ts): a page no longer writes term rows.
-- term_watermark says, per source, through which entry id term_hourly holds the counts; the entries
-- above it are counted by one INSERT … SELECT … GROUP BY per field once enough of them are there (in
-- one transaction with the watermark's move), and a judgement counts them live meanwhile. Every entry
-- archived so far is counted already (term_hourly and term_pending together): term_pending's rows join
-- term_hourly, and the watermarks start at the tables' last ids.
INSERT INTO term_hourly (source, zone_id, field, value, hour, count)
  SELECT source, zone_id, field, value, hour, sum(count) FROM term_pending WHERE true
  GROUP BY source, zone_id, field, value, hour
  ON CONFLICT (source, zone_id, field, value, hour) DO UPDATE SET count = count + excluded.count;
DROP TABLE term_pending;

CREATE TABLE term_watermark (
  source         TEXT    PRIMARY KEY CHECK (source IN ('origin', 'shield')),
  merged_through INTEGER NOT NULL,  -- every entry with an id up to this one is counted in term_hourly
  moves          INTEGER NOT NULL DEFAULT 0   -- times it moved: counts kept in memory check it unmoved
) WITHOUT ROWID;
INSERT INTO term_watermark (source, merged_through) VALUES
  ('origin', (SELECT coalesce(max(id), 0) FROM origin_error_logs)),
  ('shield', (SELECT coalesce(max(id), 0) FROM shield_event_logs));
