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
  pendingNotice,
  storedAlertState,
  undeliveredNotice,
  type UndeliveredNotice,
  type UndeliveredRow,
} from '../alert-rows.js';
import { alertStateSave } from '../alert-state-save.js';
import { StateSaver } from './alert-state-save.js';
import type { Db } from './database.js';

export type { AlertStateRow };

export interface PendingNotification<N extends NoticeRecord = NoticeRecord> {
  id: string;
  hook: string;
  notice: N;
}

export class AlertsRepository<N extends NoticeRecord = NoticeRecord> {
  private readonly selectState;
  private readonly saver;

  constructor(private readonly db: Db) {
    this.selectState = db.prepare('SELECT * FROM alert_state WHERE rule = ? AND zone_id = ?');
    this.saver = new StateSaver(db);
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
    return this.saver.save(alertStateSave(key, from, to, measured, now), notices, now);
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
