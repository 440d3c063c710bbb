// Pure: the compare-and-set save of an alert's state, one plan for both tables (alert_state: a rule per
// zone; alert_series_state: a sql rule's series) and both dialects. Each store runs the statement this
// renders, and the notices of the change, in one transaction (sqlite/alert-state-save.ts,
// postgres/alert-state-save.ts): a stored state that is no longer `from` saves nothing.
import type { SeriesKey, StoreDialect, StoredAlertState } from './store.js';
import { notifiedColumn } from './alert-state-row.js';

/** The columns a save writes; names only from this list reach the statement's text. */
type StateColumn =
  | 'rule'
  | 'zone_id'
  | 'series'
  | 'labels'
  | 'source'
  | 'state'
  | 'since'
  | 'fingerprint'
  | 'first_evaluated_at'
  | 'last_evaluated_at'
  | 'last_notified_at'
  | 'last_value'
  | 'last_threshold'
  | 'last_detail'
  | 'notified';

type Values = ReadonlyArray<readonly [StateColumn, unknown]>;

export interface StateSave {
  table: 'alert_state' | 'alert_series_state';
  /** The row's key: the INSERT's conflict target, the UPDATE's row. */
  key: Values;
  /** Written by the first save only. */
  firstOnly: Values;
  /** Written by every save. */
  set: Values;
  /** The state the evaluation read; undefined: no row yet. */
  from: StoredAlertState | undefined;
}

/** A statement's text and its values, in the dialect's placeholders. */
export interface Statement {
  sql: string;
  values: unknown[];
}

/** What every save writes of the state and of what was measured. */
function stateValues(to: StoredAlertState, fingerprint: string, detail: unknown, now: number): Values {
  return [
    ['state', to.state],
    ['since', to.since],
    ['fingerprint', fingerprint],
    ['last_evaluated_at', now],
    ['last_notified_at', to.lastNotifiedAt],
    ['last_detail', JSON.stringify(detail)],
  ];
}

/** alert_state: a rule's state for one zone. */
export function alertStateSave(
  key: { rule: string; zone: number; source: string; fingerprint: string },
  from: StoredAlertState | undefined,
  to: StoredAlertState,
  measured: { value: number | null; threshold: number | null; detail: unknown },
  now: number,
): StateSave {
  return {
    table: 'alert_state',
    key: [
      ['rule', key.rule],
      ['zone_id', key.zone],
    ],
    firstOnly: [['first_evaluated_at', to.firstEvaluatedAt]],
    set: [
      ['source', key.source],
      ...stateValues(to, key.fingerprint, measured.detail, now),
      ['last_value', measured.value],
      ['last_threshold', measured.threshold],
      ['notified', notifiedColumn(to)],
    ],
    from,
  };
}

/** alert_series_state: one series of a keyed rule; its labels are its key's JSON. */
export function seriesStateSave(
  key: SeriesKey,
  from: StoredAlertState | undefined,
  to: StoredAlertState,
  measured: { value: number | null; detail: unknown },
  now: number,
): StateSave {
  return {
    table: 'alert_series_state',
    key: [
      ['rule', key.rule],
      ['series', key.series],
    ],
    firstOnly: [
      ['labels', key.series],
      ['first_evaluated_at', to.firstEvaluatedAt],
    ],
    set: [
      ...stateValues(to, key.fingerprint, measured.detail, now),
      ['last_value', measured.value],
      ['notified', notifiedColumn(to)],
    ],
    from,
  };
}

/** `?` on SQLite, `$1`, `$2`… on PostgreSQL. */
function placeholders(dialect: StoreDialect): (n: number) => string {
  return dialect === 'sqlite' ? () => '?' : (n) => `$${n}`;
}

/**
 * The save as one statement: with no state read, an INSERT that does nothing on a row saved meanwhile;
 * else an UPDATE of the row only while it still holds the state read. Either changes one row or none.
 */
export function stateSaveStatement(plan: StateSave, dialect: StoreDialect): Statement {
  const at = placeholders(dialect);
  const values: unknown[] = [];
  const next = (value: unknown): string => at(values.push(value));
  const keyNames = plan.key.map(([column]) => column).join(', ');
  if (plan.from === undefined) {
    const columns = [...plan.key, ...plan.firstOnly, ...plan.set];
    const names = columns.map(([column]) => column).join(', ');
    const slots = columns.map(([, value]) => next(value)).join(', ');
    return {
      sql: `INSERT INTO ${plan.table} (${names}) VALUES (${slots}) ON CONFLICT (${keyNames}) DO NOTHING`,
      values,
    };
  }
  const set = plan.set.map(([column, value]) => `${column} = ${next(value)}`).join(', ');
  const where = plan.key.map(([column, value]) => `${column} = ${next(value)}`);
  // In the order of the text: SQLite's `?` are numbered by where they stand.
  where.push(`state = ${next(plan.from.state)}`, `since = ${next(plan.from.since)}`);
  // last_notified_at is null before a first notice: compared so that null equals null.
  where.push(
    dialect === 'sqlite'
      ? `last_notified_at IS ${next(plan.from.lastNotifiedAt)}`
      : `last_notified_at IS NOT DISTINCT FROM ${next(plan.from.lastNotifiedAt)}::bigint`,
  );
  where.push(`first_evaluated_at = ${next(plan.from.firstEvaluatedAt)}`);
  return { sql: `UPDATE ${plan.table} SET ${set} WHERE ${where.join(' AND ')}`, values };
}

/** The outbox's INSERT of a notice for one hook (values: alert-rows.ts noticeValues); once per hook. */
export function noticeInsert(dialect: StoreDialect): string {
  const at = placeholders(dialect);
  const slots = [1, 2, 3, 4, 5, 6, 7].map(at).join(', ');
  return `INSERT INTO alert_notifications (id, hook, rule, zone_id, status, notice, created_at)
  VALUES (${slots}) ON CONFLICT (id, hook) DO NOTHING`;
}
