// alert_state and the outbox (alert_notifications); what the rules measure is rule-reads.ts's.
// The store owns these types (store.ts); the alerts layer above gives the notice its full shape (N).
import type {
  AlertStateRow,
  NoticeRecord,
  NotificationRow,
  OutboxCursor,
  StoredAlertState as AlertState,
} from '../store.js';
import {
  afterValues,
  noticeValues,
  pendingNotice,
  storedAlertState,
  undeliveredNotice,
  type UndeliveredNotice,
  type UndeliveredRow,
} from '../alert-rows.js';
import { notifiedColumn } from '../alert-state-row.js';
import type { Db } from './database.js';

export type { AlertStateRow };

export interface PendingNotification<N extends NoticeRecord = NoticeRecord> {
  id: string;
  hook: string;
  notice: N;
}

export class AlertsRepository<N extends NoticeRecord = NoticeRecord> {
  private readonly selectState;
  private readonly insertState;
  private readonly updateState;
  private readonly insertNotice;

  constructor(private readonly db: Db) {
    this.selectState = db.prepare('SELECT * FROM alert_state WHERE rule = ? AND zone_id = ?');
    this.insertState = db.prepare(`INSERT INTO alert_state
        (rule, zone_id, source, state, since, fingerprint, first_evaluated_at, last_evaluated_at, last_notified_at,
         last_value, last_threshold, last_detail, notified)
      VALUES (@rule, @zone, @source, @state, @since, @fingerprint, @firstEvaluatedAt, @now, @lastNotifiedAt,
              @value, @threshold, @detail, @notified)
      ON CONFLICT (rule, zone_id) DO NOTHING`);
    // Only from the state the evaluation read (see save).
    this.updateState = db.prepare(`UPDATE alert_state SET
        source = @source, state = @state, since = @since, fingerprint = @fingerprint,
        last_evaluated_at = @now, last_notified_at = @lastNotifiedAt,
        last_value = @value, last_threshold = @threshold, last_detail = @detail, notified = @notified
      WHERE rule = @rule AND zone_id = @zone AND state = @fromState AND since = @fromSince
        AND last_notified_at IS @fromNotifiedAt AND first_evaluated_at = @fromFirstEvaluatedAt`);
    this.insertNotice =
      db.prepare(`INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id, hook) DO NOTHING`);
  }

  getState(rule: string, zone: number): AlertState | undefined {
    return storedAlertState(this.selectState.get(rule, zone) as AlertStateRow | undefined);
  }

  /**
   * Saves a rule's state `to` and the notices of its change in one transaction, if the stored state is
   * still `from` (undefined: no row yet); false, and nothing saved, when another evaluation saved first.
   */
  save(
    key: { rule: string; zone: number; source: string; fingerprint: string },
    from: AlertState | undefined,
    to: AlertState,
    measured: { value: number | null; threshold: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): boolean {
    return this.db
      .transaction((): boolean => {
        const values = {
          ...key,
          state: to.state,
          since: to.since,
          firstEvaluatedAt: to.firstEvaluatedAt,
          lastNotifiedAt: to.lastNotifiedAt,
          now,
          value: measured.value,
          threshold: measured.threshold,
          detail: JSON.stringify(measured.detail),
          notified: notifiedColumn(to),
        };
        const saved =
          from === undefined
            ? this.insertState.run(values)
            : this.updateState.run({
                ...values,
                fromState: from.state,
                fromSince: from.since,
                fromNotifiedAt: from.lastNotifiedAt,
                fromFirstEvaluatedAt: from.firstEvaluatedAt,
              });
        if (saved.changes !== 1) return false;
        for (const { hook, notice } of notices) {
          this.insertNotice.run(...noticeValues(hook, notice, now));
        }
        return true;
      })
      .immediate();
  }

  listStates(): AlertStateRow[] {
    return this.db.prepare('SELECT * FROM alert_state ORDER BY rule, zone_id').all() as AlertStateRow[];
  }

  /** Notices not yet handed to the delivery queue, oldest first. */
  unqueued(limit = 1000): Array<PendingNotification<N>> {
    const rows = this.db
      .prepare(
        'SELECT id, hook, notice FROM alert_notifications WHERE enqueued_at IS NULL ORDER BY created_at LIMIT ?',
      )
      .all(limit) as Array<{ id: string; hook: string; notice: string }>;
    return rows.map((r) => pendingNotice<N>(r));
  }

  /** Notices not delivered with fewer than `maxAttempts` attempts, oldest first, the `limit` after `after`. */
  undelivered(maxAttempts: number, limit: number, after?: OutboxCursor): Array<UndeliveredNotice<N>> {
    const [createdAt, id, hook] = afterValues(after);
    const rows = this.db
      .prepare(
        `SELECT id, hook, notice, attempts, created_at FROM alert_notifications
         WHERE delivered_at IS NULL AND attempts < @maxAttempts
           AND (created_at, id, hook) > (@createdAt, @id, @hook)
         ORDER BY created_at, id, hook LIMIT @limit`,
      )
      .all({ maxAttempts, limit, createdAt, id, hook }) as UndeliveredRow[];
    return rows.map((r) => undeliveredNotice<N>(r));
  }

  delivered(id: string, hook: string): boolean {
    return (
      this.db
        .prepare('SELECT delivered_at IS NOT NULL FROM alert_notifications WHERE id = ? AND hook = ?')
        .pluck()
        .get(id, hook) === 1
    );
  }

  /** Notices created at or after `sinceMs` (any process). */
  createdSince(sinceMs: number): Array<{ id: string; hook: string }> {
    return this.db
      .prepare('SELECT id, hook FROM alert_notifications WHERE created_at >= ? ORDER BY created_at')
      .all(sinceMs) as Array<{ id: string; hook: string }>;
  }

  markEnqueued(id: string, hook: string, now: number): void {
    this.db
      .prepare(
        'UPDATE alert_notifications SET enqueued_at = coalesce(enqueued_at, ?) WHERE id = ? AND hook = ?',
      )
      .run(now, id, hook);
  }

  markAttempt(id: string, hook: string, now: number, error: string | null): void {
    this.db
      .prepare(
        `UPDATE alert_notifications SET attempts = attempts + 1, last_error = ?,
           delivered_at = CASE WHEN ? IS NULL THEN ? ELSE delivered_at END WHERE id = ? AND hook = ?`,
      )
      .run(error, error, now, id, hook);
  }

  /** Notices in the outbox, newest first (for `alerts list` and tests). */
  notifications(limit = 50): NotificationRow[] {
    return this.db
      .prepare(
        'SELECT id, hook, rule, zone_id, status, delivered_at, attempts, last_error FROM alert_notifications ORDER BY created_at DESC LIMIT ?',
      )
      .all(limit) as NotificationRow[];
  }
}
