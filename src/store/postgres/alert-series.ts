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
import { seriesState } from '../alert-rows.js';
import { seriesStateSave } from '../alert-state-save.js';
import { StateSaver } from './alert-state-save.js';

export class PostgresAlertSeries<N extends NoticeRecord = NoticeRecord> implements AlertSeriesStore<N> {
  private readonly saver;

  constructor(private readonly pool: pg.Pool) {
    this.saver = new StateSaver(pool);
  }

  async states(rule: string): Promise<Map<string, StoredAlertState>> {
    const { rows } = await this.pool.query<SeriesStateRow>(
      'SELECT * FROM alert_series_state WHERE rule = $1',
      [rule],
    );
    return new Map(rows.map((r) => [r.series, seriesState(r)]));
  }

  async save(
    key: SeriesKey,
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): Promise<boolean> {
    return this.saver.save(seriesStateSave(key, from, to, measured, now), notices, now);
  }

  async list(): Promise<SeriesStateRow[]> {
    return (await this.pool.query<SeriesStateRow>('SELECT * FROM alert_series_state ORDER BY rule, series'))
      .rows;
  }
}
