// The compare-and-set save of an alert's state (alert-state-save.ts's plan) and its notices, in one
// transaction on PostgreSQL: alerts.ts and alert-series.ts save through it.
import type pg from 'pg';
import { noticeValues } from '../alert-rows.js';
import { noticeInsert, stateSaveStatement, type StateSave } from '../alert-state-save.js';
import type { NoticeRecord } from '../store.js';
import { transaction } from './transaction.js';

const INSERT_NOTICE = noticeInsert('postgres');

export class StateSaver {
  constructor(private readonly pool: pg.Pool) {}

  /** True when saved; false, and nothing saved, when the stored state is no longer `plan.from`. */
  async save(
    plan: StateSave,
    notices: ReadonlyArray<{ hook: string; notice: NoticeRecord }>,
    now: number,
  ): Promise<boolean> {
    const { sql, values } = stateSaveStatement(plan, 'postgres');
    return transaction(this.pool, async (c) => {
      // A concurrent save of the same row is waited for, and the row it left is checked by the WHERE.
      if ((await c.query(sql, values)).rowCount !== 1) return false;
      for (const { hook, notice } of notices) await c.query(INSERT_NOTICE, noticeValues(hook, notice, now));
      return true;
    });
  }
}
