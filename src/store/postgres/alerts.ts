// alert_state and the outbox (alert_notifications) on PostgreSQL (the same behaviour as sqlite/alerts.ts);
// what the rules measure is rule-reads.ts's.
import type pg from 'pg';
import type {
  AlertStateRow,
  AlertStateStore,
  NoticeRecord,
  NotificationRow,
  OutboxCursor,
  OutboxStore,
  StoredAlertState,
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

export class PostgresAlerts<N extends NoticeRecord = NoticeRecord>
  implements AlertStateStore<N>, OutboxStore<N>
{
  private readonly saver;

  constructor(private readonly pool: pg.Pool) {
    this.saver = new StateSaver(pool);
  }

  async getState(rule: string, zone: number): Promise<StoredAlertState | undefined> {
    const { rows } = await this.pool.query<AlertStateRow>(
      'SELECT * FROM alert_state WHERE rule = $1 AND zone_id = $2',
      [rule, zone],
    );
    return storedAlertState(rows[0]);
  }

  async save(
    key: { rule: string; zone: number; source: string; fingerprint: string },
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; threshold: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): Promise<boolean> {
    return this.saver.save(alertStateSave(key, from, to, measured, now), notices, now);
  }

  async listStates(): Promise<AlertStateRow[]> {
    return (await this.pool.query<AlertStateRow>('SELECT * FROM alert_state ORDER BY rule, zone_id')).rows;
  }

  async unqueued(limit = 1000): Promise<Array<{ id: string; hook: string; notice: N }>> {
    const { rows } = await this.pool.query<{ id: string; hook: string; notice: string }>(
      'SELECT id, hook, notice FROM alert_notifications WHERE enqueued_at IS NULL ORDER BY created_at LIMIT $1',
      [limit],
    );
    return rows.map((r) => pendingNotice<N>(r));
  }

  async undelivered(
    maxAttempts: number,
    limit: number,
    after?: OutboxCursor,
  ): Promise<Array<UndeliveredNotice<N>>> {
    const { rows } = await this.pool.query<UndeliveredRow>(
      `SELECT id, hook, notice, attempts, created_at FROM alert_notifications
       WHERE delivered_at IS NULL AND attempts < $1 AND (created_at, id, hook) > ($2::bigint, $3::text, $4::text)
       ORDER BY created_at, id, hook LIMIT $5`,
      [maxAttempts, ...afterValues(after), limit],
    );
    return rows.map((r) => undeliveredNotice<N>(r));
  }

  async delivered(id: string, hook: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ done: boolean }>(
      'SELECT delivered_at IS NOT NULL AS done FROM alert_notifications WHERE id = $1 AND hook = $2',
      [id, hook],
    );
    return rows[0]?.done === true;
  }

  async createdSince(sinceMs: number): Promise<Array<{ id: string; hook: string }>> {
    const { rows } = await this.pool.query<{ id: string; hook: string }>(
      'SELECT id, hook FROM alert_notifications WHERE created_at >= $1 ORDER BY created_at',
      [sinceMs],
    );
    return rows;
  }

  async markEnqueued(id: string, hook: string, now: number): Promise<void> {
    await this.pool.query(
      'UPDATE alert_notifications SET enqueued_at = coalesce(enqueued_at, $1) WHERE id = $2 AND hook = $3',
      [now, id, hook],
    );
  }

  async markAttempt(id: string, hook: string, now: number, error: string | null): Promise<void> {
    await this.pool.query(
      `UPDATE alert_notifications SET attempts = attempts + 1, last_error = $1,
         delivered_at = CASE WHEN $1::text IS NULL THEN $2 ELSE delivered_at END WHERE id = $3 AND hook = $4`,
      [error, now, id, hook],
    );
  }

  async notifications(limit = 50): Promise<NotificationRow[]> {
    const { rows } = await this.pool.query<NotificationRow>(
      `SELECT id, hook, rule, zone_id, status, delivered_at, attempts, last_error FROM alert_notifications
       ORDER BY created_at DESC LIMIT $1`,
      [limit],
    );
    return rows;
  }
}
