// alert_series_state on SQLite: the state of each alert of a keyed rule (a sql rule's row), saved with
// its notices (the same outbox as alert_state's) in one transaction, as AlertsRepository.save does.
import type { NoticeRecord, SeriesKey, SeriesStateRow, StoredAlertState } from '../store.js';
import type { Db } from './database.js';

export class AlertSeriesRepository<N extends NoticeRecord = NoticeRecord> {
  private readonly select;
  private readonly insert;
  private readonly update;
  private readonly insertNotice;

  constructor(private readonly db: Db) {
    this.select = db.prepare('SELECT * FROM alert_series_state WHERE rule = ?');
    this.insert = db.prepare(`INSERT INTO alert_series_state
        (rule, series, labels, state, since, fingerprint, first_evaluated_at, last_evaluated_at,
         last_notified_at, last_value, last_detail)
      VALUES (@rule, @series, @series, @state, @since, @fingerprint, @firstEvaluatedAt, @now,
              @lastNotifiedAt, @value, @detail)
      ON CONFLICT (rule, series) DO NOTHING`);
    this.update = db.prepare(`UPDATE alert_series_state SET
        state = @state, since = @since, fingerprint = @fingerprint, last_evaluated_at = @now,
        last_notified_at = @lastNotifiedAt, last_value = @value, last_detail = @detail
      WHERE rule = @rule AND series = @series AND state = @fromState AND since = @fromSince
        AND last_notified_at IS @fromNotifiedAt AND first_evaluated_at = @fromFirstEvaluatedAt`);
    this.insertNotice =
      db.prepare(`INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id, hook) DO NOTHING`);
  }

  states(rule: string): Map<string, StoredAlertState> {
    const rows = this.select.all(rule) as SeriesStateRow[];
    return new Map(rows.map((r) => [r.series, stateOf(r)]));
  }

  save(
    key: SeriesKey,
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; detail: unknown },
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
          detail: JSON.stringify(measured.detail),
        };
        const saved =
          from === undefined
            ? this.insert.run(values)
            : this.update.run({
                ...values,
                fromState: from.state,
                fromSince: from.since,
                fromNotifiedAt: from.lastNotifiedAt,
                fromFirstEvaluatedAt: from.firstEvaluatedAt,
              });
        if (saved.changes !== 1) return false;
        for (const { hook, notice } of notices)
          this.insertNotice.run(
            notice.id,
            hook,
            notice.rule,
            notice.zone,
            notice.status,
            JSON.stringify(notice),
            now,
          );
        return true;
      })
      .immediate();
  }

  list(): SeriesStateRow[] {
    return this.db
      .prepare('SELECT * FROM alert_series_state ORDER BY rule, series')
      .all() as SeriesStateRow[];
  }
}

export function stateOf(r: SeriesStateRow): StoredAlertState {
  return {
    state: r.state,
    since: r.since,
    lastNotifiedAt: r.last_notified_at,
    firstEvaluatedAt: r.first_evaluated_at,
  };
}
