// alert_series_state on SQLite: the state of each alert of a keyed rule (a sql rule's row), saved with
// its notices (the same outbox as alert_state's) in one transaction, as AlertsRepository.save does.
import type { NoticeRecord, SeriesKey, SeriesStateRow, StoredAlertState } from '../store.js';
import { seriesState } from '../alert-rows.js';
import { seriesStateSave } from '../alert-state-save.js';
import { StateSaver } from './alert-state-save.js';
import type { Db } from './database.js';

export class AlertSeriesRepository<N extends NoticeRecord = NoticeRecord> {
  private readonly select;
  private readonly saver;

  constructor(private readonly db: Db) {
    this.select = db.prepare('SELECT * FROM alert_series_state WHERE rule = ?');
    this.saver = new StateSaver(db);
  }

  states(rule: string): Map<string, StoredAlertState> {
    const rows = this.select.all(rule) as SeriesStateRow[];
    return new Map(rows.map((r) => [r.series, seriesState(r)]));
  }

  save(
    key: SeriesKey,
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): boolean {
    return this.saver.save(seriesStateSave(key, from, to, measured, now), notices, now);
  }

  list(): SeriesStateRow[] {
    return this.db
      .prepare('SELECT * FROM alert_series_state ORDER BY rule, series')
      .all() as SeriesStateRow[];
  }
}
