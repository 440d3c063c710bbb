// Alert states at scrape time: for each configured rule, how many zones are in each state.
import type { Db } from '../store/database.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export const ALERT_STATES = ['inactive', 'pending', 'firing', 'resolved'] as const;

export function alertsCollector(m: MetricSet, db: Db, rules: readonly string[]): Collector {
  const counts = db.prepare('SELECT rule, state, count(*) AS zones FROM alert_state GROUP BY rule, state');
  return {
    name: 'alerts',
    collect() {
      const rows = counts.all() as Array<{ rule: string; state: string; zones: number }>;
      const found = new Map(rows.map((r) => [`${r.rule} ${r.state}`, r.zones]));
      m.alertStates.reset();
      // Rules no longer configured keep their rows in alert_state; they are not reported.
      for (const rule of rules) {
        for (const state of ALERT_STATES)
          m.alertStates.set({ rule, state }, found.get(`${rule} ${state}`) ?? 0);
      }
    },
  };
}
