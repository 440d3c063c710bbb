-- Silences hold a sql rule's alerts too: alert_series_state.notified is, as alert_state.notified, the
-- last status receivers were sent for the series, so that once no silence holds, one notice tells them
-- what changed meanwhile (alerts/held-notices.ts).

ALTER TABLE alert_series_state ADD COLUMN notified text CHECK (notified IN ('firing', 'resolved'));
-- Before this, every firing series had been notified firing.
UPDATE alert_series_state SET notified = 'firing' WHERE state = 'firing';
