// The compare-and-set save of an alert's state (alert-state-save.ts's plan) and its notices, in one
// immediate transaction on SQLite: alerts.ts and alert-series.ts save through it.
import type { Statement } from 'better-sqlite3';
import { noticeValues } from '../alert-rows.js';
import { noticeInsert, stateSaveStatement, type StateSave } from '../alert-state-save.js';
import type { NoticeRecord } from '../store.js';
import type { Db } from './database.js';

export class StateSaver {
  /** By text: each table has two statements (the first save, a later one). */
  private readonly statements = new Map<string, Statement>();
  private readonly insertNotice;

  constructor(private readonly db: Db) {
    this.insertNotice = db.prepare(noticeInsert('sqlite'));
  }

  /** True when saved; false, and nothing saved, when the stored state is no longer `plan.from`. */
  save(
    plan: StateSave,
    notices: ReadonlyArray<{ hook: string; notice: NoticeRecord }>,
    now: number,
  ): boolean {
    const { sql, values } = stateSaveStatement(plan, 'sqlite');
    return this.db
      .transaction((): boolean => {
        if (this.prepared(sql).run(...values).changes !== 1) return false;
        for (const { hook, notice } of notices) this.insertNotice.run(...noticeValues(hook, notice, now));
        return true;
      })
      .immediate();
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
