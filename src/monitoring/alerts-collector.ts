// Alert states at scrape time: for each configured rule, how many of its alerts are in each state — a
// rule's alerts are its zones, a sql rule's the rows of its statement (counted per rule, not labelled per
// row: a statement's rows are bounded by maxRows but not known ahead).
import { storedAlerts } from '../alerts/stored-alerts.js';
import type { AlertSeriesStore, AlertsStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export const ALERT_STATES = ['inactive', 'pending', 'firing', 'resolved'] as const;

export function alertsCollector(
  m: MetricSet,
  store: { alerts: Pick<AlertsStore, 'listStates'>; alertSeries: Pick<AlertSeriesStore, 'list'> },
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
): Collector {
  return {
    name: 'alerts',
    async collect() {
      // One row per rule and zone, and per sql rule and row (at most maxRows each, plus those resolved).
      const found = new Map<string, number>();
      const [zones, series] = await Promise.all([store.alerts.listStates(), store.alertSeries.list()]);
      // Rules no longer configured keep their rows; they are not reported.
      for (const a of storedAlerts(zones, series, rules)) {
        const key = `${a.rule} ${a.state}`;
        found.set(key, (found.get(key) ?? 0) + 1);
      }
      m.alertStates.reset();
      for (const { name: rule } of rules) {
        for (const state of ALERT_STATES)
          m.alertStates.set({ rule, state }, found.get(`${rule} ${state}`) ?? 0);
      }
    },
  };
}
