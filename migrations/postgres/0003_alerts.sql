-- Alert rule state and the notification outbox (as migrations/0003_alerts.sql on SQLite). A state change
-- and the notices it causes commit in one transaction, so a restart never re-sends nor forgets one.

CREATE TABLE alert_state (
  rule               text   NOT NULL,
  zone_id            bigint NOT NULL,
  source             text   NOT NULL,
  state              text   NOT NULL CHECK (state IN ('inactive', 'pending', 'firing', 'resolved')),
  since              bigint NOT NULL,   -- ms: when the current state began
  fingerprint        text   NOT NULL,
  first_evaluated_at bigint NOT NULL,
  last_evaluated_at  bigint NOT NULL,
  last_notified_at   bigint,
  last_value         double precision,  -- the figure the rule measured (count, age in ms, counter increase)
  last_threshold     double precision,
  last_detail        text,              -- JSON: window, reference, reason
  PRIMARY KEY (rule, zone_id)
);

CREATE TABLE alert_notifications (
  id           text   NOT NULL,         -- idempotency key of the notice (sent to receivers)
  hook         text   NOT NULL,
  rule         text   NOT NULL,
  zone_id      bigint NOT NULL,
  status       text   NOT NULL CHECK (status IN ('firing', 'resolved')),
  notice       text   NOT NULL,         -- JSON of the notice
  created_at   bigint NOT NULL,
  enqueued_at  bigint,                  -- handed to the durable delivery queue
  delivered_at bigint,
  attempts     bigint NOT NULL DEFAULT 0,
  last_error   text,
  PRIMARY KEY (id, hook)
);
CREATE INDEX alert_notifications_pending ON alert_notifications (created_at) WHERE enqueued_at IS NULL;
CREATE INDEX alert_notifications_created ON alert_notifications (created_at);
