// alert_series_state on PostgreSQL (as src/store/sqlite/alert-series.ts on SQLite): each alert of a
// keyed rule (a sql rule's row), saved with its notices in one transaction, compare-and-set.
import type pg from 'pg';
import type {
  AlertSeriesStore,
  NoticeRecord,
  SeriesKey,
  SeriesStateRow,
  StoredAlertState,
} from '../store.js';
import { transaction } from './transaction.js';

const INSERT = `INSERT INTO alert_series_state
    (rule, series, labels, state, since, fingerprint, first_evaluated_at, last_evaluated_at,
     last_notified_at, last_value, last_detail)
  VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (rule, series) DO NOTHING`;

/** $1 rule, $2 series, $3 state, $4 since, $5 fingerprint, $6 now, $7 notified, $8 value, $9 detail; read: $10…$13. */
const UPDATE = `UPDATE alert_series_state SET
    state = $3, since = $4, fingerprint = $5, last_evaluated_at = $6, last_notified_at = $7,
    last_value = $8, last_detail = $9
  WHERE rule = $1 AND series = $2 AND state = $10 AND since = $11
    AND last_notified_at IS NOT DISTINCT FROM $12::bigint AND first_evaluated_at = $13`;

const INSERT_NOTICE = `INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id, hook) DO NOTHING`;

export class PostgresAlertSeries<N extends NoticeRecord = NoticeRecord> implements AlertSeriesStore<N> {
  constructor(private readonly pool: pg.Pool) {}

  async states(rule: string): Promise<Map<string, StoredAlertState>> {
    const { rows } = await this.pool.query<SeriesStateRow>(
      'SELECT * FROM alert_series_state WHERE rule = $1',
      [rule],
    );
    return new Map(
      rows.map((r) => [
        r.series,
        {
          state: r.state,
          since: r.since,
          lastNotifiedAt: r.last_notified_at,
          firstEvaluatedAt: r.first_evaluated_at,
        },
      ]),
    );
  }

  async save(
    key: SeriesKey,
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): Promise<boolean> {
    const detail = JSON.stringify(measured.detail);
    return transaction(this.pool, async (c) => {
      const saved =
        from === undefined
          ? await c.query(INSERT, [
              key.rule,
              key.series,
              to.state,
              to.since,
              key.fingerprint,
              to.firstEvaluatedAt,
              now,
              to.lastNotifiedAt,
              measured.value,
              detail,
            ])
          : await c.query(UPDATE, [
              key.rule,
              key.series,
              to.state,
              to.since,
              key.fingerprint,
              now,
              to.lastNotifiedAt,
              measured.value,
              detail,
              from.state,
              from.since,
              from.lastNotifiedAt,
              from.firstEvaluatedAt,
            ]);
      if (saved.rowCount !== 1) return false;
      for (const { hook, notice } of notices) {
        await c.query(INSERT_NOTICE, [
          notice.id,
          hook,
          notice.rule,
          notice.zone,
          notice.status,
          JSON.stringify(notice),
          now,
        ]);
      }
      return true;
    });
  }

  async list(): Promise<SeriesStateRow[]> {
    return (await this.pool.query<SeriesStateRow>('SELECT * FROM alert_series_state ORDER BY rule, series'))
      .rows;
  }
}
