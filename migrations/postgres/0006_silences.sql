-- Silences (as migrations/sqlite/0007_silences.sql on SQLite): an alert whose labels every matcher of
-- an active silence matches keeps its state, but its notices are held. alert_state.notified is the last
-- status receivers were sent, so that one notice tells them what changed once the silence ends.

CREATE TABLE alert_silences (
  id         text   NOT NULL PRIMARY KEY,
  matchers   text   NOT NULL,           -- JSON: [{ name, op, value }] (alerts/silence-matchers.ts)
  starts_at  bigint NOT NULL,           -- ms: the silence holds in [starts_at, ends_at)
  ends_at    bigint NOT NULL,
  comment    text,
  created_at bigint NOT NULL,
  CHECK (ends_at >= starts_at)
);
CREATE INDEX alert_silences_ends ON alert_silences (ends_at);

ALTER TABLE alert_state ADD COLUMN notified text CHECK (notified IN ('firing', 'resolved'));
-- Before silences every firing alert had been notified firing.
UPDATE alert_state SET notified = 'firing' WHERE state = 'firing';
