// Alert states at scrape time: for each configured rule, how many zones are in each state.
import type { AlertsStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export const ALERT_STATES = ['inactive', 'pending', 'firing', 'resolved'] as const;

export function alertsCollector(
  m: MetricSet,
  alerts: Pick<AlertsStore, 'listStates'>,
  rules: readonly string[],
): Collector {
  return {
    name: 'alerts',
    async collect() {
      // One row per rule and zone: a few hundred at most.
      const found = new Map<string, number>();
      for (const r of await alerts.listStates()) {
        const key = `${r.rule} ${r.state}`;
        found.set(key, (found.get(key) ?? 0) + 1);
      }
      m.alertStates.reset();
      // Rules no longer configured keep their rows in alert_state; they are not reported.
      for (const rule of rules) {
        for (const state of ALERT_STATES)
          m.alertStates.set({ rule, state }, found.get(`${rule} ${state}`) ?? 0);
      }
    },
  };
}
