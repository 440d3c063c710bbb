// The compare-and-set save's statement (src/store/alert-state-save.ts) says the same in both dialects:
// SQLite's `?` take the values in the order they stand, PostgreSQL's `$n` by number.
import { describe, expect, it } from 'vitest';
import {
  alertStateSave,
  noticeInsert,
  seriesStateSave,
  stateSaveStatement,
  type StateSave,
} from '../../src/store/alert-state-save.js';
import type { StoredAlertState } from '../../src/store/store.js';

const read = { state: 'pending' as const, since: 10, lastNotifiedAt: null, firstEvaluatedAt: 5 };
const to = { state: 'firing' as const, since: 20, lastNotifiedAt: 20, firstEvaluatedAt: 5 };

/** The statement with each placeholder replaced by its value, as the database binds it. */
function bound(plan: StateSave, dialect: 'sqlite' | 'postgres'): string {
  const { sql, values } = stateSaveStatement(plan, dialect);
  const show = (v: unknown) => JSON.stringify(v);
  if (dialect === 'postgres') {
    expect(sql.match(/\$\d+/g)).toHaveLength(values.length);
    return sql.replace(/\$(\d+)(::bigint)?/g, (_, n: string) => show(values[Number(n) - 1]));
  }
  let i = 0;
  expect(sql.match(/\?/g)).toHaveLength(values.length);
  return sql.replace(/\?/g, () => show(values[i++]));
}

const alert = (from: typeof read | undefined, state: StoredAlertState = to) =>
  alertStateSave(
    { rule: 'r', zone: 7, source: 'o', fingerprint: 'f' },
    from,
    state,
    { value: 1, threshold: 2, detail: { a: 1 } },
    30,
  );
const series = (from: typeof read | undefined, state: StoredAlertState = to) =>
  seriesStateSave(
    { rule: 'q', series: '{"z":1}', fingerprint: 'f' },
    from,
    state,
    { value: null, detail: null },
    30,
  );

const PLANS: Array<[string, StateSave]> = [
  ['alert_state, first save', alert(undefined)],
  ['alert_state, from a state read', alert(read)],
  ['alert_series_state, first save', series(undefined)],
  ['alert_series_state, from a state read', series(read)],
];

describe('stateSaveStatement', () => {
  it.each(PLANS)('%s: both dialects bind each value to the same column', (_, plan) => {
    const sqlite = bound(plan, 'sqlite').replace(
      /last_notified_at IS /,
      'last_notified_at IS NOT DISTINCT FROM ',
    );
    expect(sqlite).toBe(bound(plan, 'postgres'));
  });

  it('updates only the row still holding the state read, null last notice equal to null', () => {
    const plan = PLANS[3]![1];
    expect(bound(plan, 'sqlite')).toMatch(
      /WHERE rule = "q" AND series = "\{\\"z\\":1\}" AND state = "pending" AND since = 10 AND last_notified_at IS null AND first_evaluated_at = 5$/,
    );
    expect(bound(PLANS[0]![1], 'sqlite')).toMatch(/ON CONFLICT \(rule, zone_id\) DO NOTHING$/);
  });

  it('writes notified as the state implies when the caller does not track it', () => {
    expect(bound(PLANS[1]![1], 'sqlite')).toContain('notified = "firing"');
    expect(bound(alert(read, { ...to, notified: null }), 'sqlite')).toContain('notified = null');
  });

  it("writes a sql rule's series' notified as alert_state's (a silence's held notices need it)", () => {
    expect(bound(series(read), 'sqlite')).toContain('notified = "firing"');
    expect(bound(series(read, { ...to, notified: null }), 'sqlite')).toContain('notified = null');
    expect(bound(series(undefined, { ...to, notified: null }), 'sqlite')).toMatch(
      /^INSERT INTO alert_series_state \(.*, notified\) VALUES \(.*, null\) ON CONFLICT/,
    );
  });

  it('inserts a notice with seven placeholders in each dialect', () => {
    expect(noticeInsert('sqlite').match(/\?/g)).toHaveLength(7);
    expect(noticeInsert('postgres')).toContain('VALUES ($1, $2, $3, $4, $5, $6, $7)');
  });
});
