-- Alert rule state and the notification outbox. A state change and the notices it causes commit in one
-- transaction, so a restart never re-sends nor forgets one.

CREATE TABLE alert_state (
  rule               TEXT    NOT NULL,
  zone_id            INTEGER NOT NULL,
  source             TEXT    NOT NULL,
  state              TEXT    NOT NULL CHECK (state IN ('inactive', 'pending', 'firing', 'resolved')),
  since              INTEGER NOT NULL,   -- ms: when the current state began
  fingerprint        TEXT    NOT NULL,
  first_evaluated_at INTEGER NOT NULL,
  last_evaluated_at  INTEGER NOT NULL,
  last_notified_at   INTEGER,
  last_value         REAL,               -- the figure the rule measured (count, age in ms, counter increase)
  last_threshold     REAL,
  last_detail        TEXT,               -- JSON: window, reference, reason
  PRIMARY KEY (rule, zone_id)
) WITHOUT ROWID;

CREATE TABLE alert_notifications (
  id           TEXT    NOT NULL,         -- idempotency key of the notice (sent to receivers)
  hook         TEXT    NOT NULL,
  rule         TEXT    NOT NULL,
  zone_id      INTEGER NOT NULL,
  status       TEXT    NOT NULL CHECK (status IN ('firing', 'resolved')),
  notice       TEXT    NOT NULL,         -- JSON of the notice
  created_at   INTEGER NOT NULL,
  enqueued_at  INTEGER,                  -- handed to the durable delivery queue
  delivered_at INTEGER,
  attempts     INTEGER NOT NULL DEFAULT 0,
  last_error   TEXT,
  PRIMARY KEY (id, hook)
) WITHOUT ROWID;
CREATE INDEX alert_notifications_pending ON alert_notifications (enqueued_at) WHERE enqueued_at IS NULL;
