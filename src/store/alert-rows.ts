// Pure: the rows of alert_state and of the outbox (alert_notifications) as both stores read them back,
// and what both write of a notice (SQLite and PostgreSQL alike: one mapping, two dialects' SQL).
import type {
  AlertStateRow,
  NoticeRecord,
  OutboxCursor,
  SeriesStateRow,
  StoredAlertState,
  UndeliveredNotice,
} from './store.js';

export type { OutboxCursor, UndeliveredNotice };

/** A rule's state as the evaluator reads it, from its alert_state row. */
export function storedAlertState(row: AlertStateRow | undefined): StoredAlertState | undefined {
  return row
    ? {
        state: row.state,
        since: row.since,
        lastNotifiedAt: row.last_notified_at,
        firstEvaluatedAt: row.first_evaluated_at,
        notified: row.notified,
      }
    : undefined;
}

/** A series' state as the sql evaluator reads it, from its alert_series_state row. */
export function seriesState(row: SeriesStateRow): StoredAlertState {
  return {
    state: row.state,
    since: row.since,
    lastNotifiedAt: row.last_notified_at,
    firstEvaluatedAt: row.first_evaluated_at,
    notified: row.notified,
  };
}

/** The alert_notifications values of a notice for one hook, in the order of both INSERTs. */
export function noticeValues(hook: string, notice: NoticeRecord, now: number): unknown[] {
  return [notice.id, hook, notice.rule, notice.zone, notice.status, JSON.stringify(notice), now];
}

/** A notice not yet handed to the delivery queue, from its row (the notice is kept as JSON). */
export function pendingNotice<N>(r: { id: string; hook: string; notice: string }): {
  id: string;
  hook: string;
  notice: N;
} {
  return { id: r.id, hook: r.hook, notice: JSON.parse(r.notice) as N };
}

/** The columns AlertsStore.undelivered reads. */
export interface UndeliveredRow {
  id: string;
  hook: string;
  /** The notice's JSON. */
  notice: string;
  attempts: number;
  created_at: number;
}

export function undeliveredNotice<N>(r: UndeliveredRow): UndeliveredNotice<N> {
  return {
    id: r.id,
    hook: r.hook,
    notice: JSON.parse(r.notice) as N,
    attempts: r.attempts,
    cursor: { createdAt: r.created_at, id: r.id, hook: r.hook },
  };
}

/** The cursor's values for the statement; before every notice when there is none. */
export function afterValues(after: OutboxCursor | undefined): [number, string, string] {
  return [after?.createdAt ?? Number.MIN_SAFE_INTEGER, after?.id ?? '', after?.hook ?? ''];
}
