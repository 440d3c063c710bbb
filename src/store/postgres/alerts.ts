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
  noticeValues,
  pendingNotice,
  storedAlertState,
  undeliveredNotice,
  type UndeliveredNotice,
  type UndeliveredRow,
} from '../alert-rows.js';
import { notifiedColumn } from '../alert-state-row.js';
import { transaction } from './transaction.js';

const STATE_COLUMNS = `rule, zone_id, source, state, since, fingerprint, first_evaluated_at, last_evaluated_at,
  last_notified_at, last_value, last_threshold, last_detail, notified`;

/** A rule's first state. $1…$13 as STATE_COLUMNS. */
const INSERT_STATE = `INSERT INTO alert_state (${STATE_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
  ON CONFLICT (rule, zone_id) DO NOTHING`;

/**
 * Only from the state the evaluation read: $1 rule, $2 zone, $3 source, $4 state, $5 since,
 * $6 fingerprint, $7 now, $8 last notified, $9 value, $10 threshold, $11 detail; the state read: $12 state,
 * $13 since, $14 last notified, $15 first evaluated; $16 the status last sent (notified).
 */
const UPDATE_STATE = `UPDATE alert_state SET
    source = $3, state = $4, since = $5, fingerprint = $6, last_evaluated_at = $7, last_notified_at = $8,
    last_value = $9, last_threshold = $10, last_detail = $11, notified = $16
  WHERE rule = $1 AND zone_id = $2 AND state = $12 AND since = $13
    AND last_notified_at IS NOT DISTINCT FROM $14::bigint AND first_evaluated_at = $15`;

const INSERT_NOTICE = `INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id, hook) DO NOTHING`;

export class PostgresAlerts<N extends NoticeRecord = NoticeRecord>
  implements AlertStateStore<N>, OutboxStore<N>
{
  constructor(private readonly pool: pg.Pool) {}

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
    const head = [key.rule, key.zone, key.source, to.state, to.since, key.fingerprint];
    const tail = [to.lastNotifiedAt, measured.value, measured.threshold, JSON.stringify(measured.detail)];
    return transaction(this.pool, async (c) => {
      // A concurrent save of the same row is waited for, and the row it left is checked by the WHERE.
      const saved =
        from === undefined
          ? await c.query(INSERT_STATE, [...head, to.firstEvaluatedAt, now, ...tail, notifiedColumn(to)])
          : await c.query(UPDATE_STATE, [
              ...head,
              now,
              ...tail,
              from.state,
              from.since,
              from.lastNotifiedAt,
              from.firstEvaluatedAt,
              notifiedColumn(to),
            ]);
      if (saved.rowCount !== 1) return false;
      for (const { hook, notice } of notices) {
        await c.query(INSERT_NOTICE, noticeValues(hook, notice, now));
      }
      return true;
    });
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
