-- Silences (edgelog alerts silence): an alert whose labels every matcher of an active silence matches
-- keeps its state, but its notices are held. alert_state.notified is the last status receivers were
-- sent, so that one notice tells them what changed once the silence ends (alerts/held-notices.ts).

CREATE TABLE alert_silences (
  id         TEXT    NOT NULL PRIMARY KEY,
  matchers   TEXT    NOT NULL,          -- JSON: [{ name, op, value }] (alerts/silence-matchers.ts)
  starts_at  INTEGER NOT NULL,          -- ms: the silence holds in [starts_at, ends_at)
  ends_at    INTEGER NOT NULL,
  comment    TEXT,
  created_at INTEGER NOT NULL,
  CHECK (ends_at >= starts_at)
) WITHOUT ROWID;
CREATE INDEX alert_silences_ends ON alert_silences (ends_at);

ALTER TABLE alert_state ADD COLUMN notified TEXT CHECK (notified IN ('firing', 'resolved'));
-- Before silences every firing alert had been notified firing.
UPDATE alert_state SET notified = 'firing' WHERE state = 'firing';
