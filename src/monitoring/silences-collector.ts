// Silenced alerts at scrape time: for each configured rule, how many of its alerts (its zones', a sql
// rule's rows') a silence holds now (the alerts/silences.ts decision the evaluator makes).
import { silenceFromRow, silencing } from '../alerts/silences.js';
import { storedAlerts } from '../alerts/stored-alerts.js';
import type { AlertSeriesStore, AlertsStore, SilencesStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export function silencesCollector(
  m: MetricSet,
  store: {
    alerts: Pick<AlertsStore, 'listStates'>;
    alertSeries: Pick<AlertSeriesStore, 'list'>;
    silences: Pick<SilencesStore, 'list'>;
  },
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
  now: () => number,
): Collector {
  return {
    name: 'silences',
    async collect() {
      const at = now();
      const silences = (await store.silences.list({ activeAt: at })).map(silenceFromRow);
      const held = new Map<string, number>();
      if (silences.length > 0) {
        const [zones, series] = await Promise.all([store.alerts.listStates(), store.alertSeries.list()]);
        for (const a of storedAlerts(zones, series, rules)) {
          if (silencing(silences, a.labels, at).length > 0) held.set(a.rule, (held.get(a.rule) ?? 0) + 1);
        }
      }
      m.alertSilenced.reset();
      for (const { name } of rules) m.alertSilenced.set({ rule: name }, held.get(name) ?? 0);
      m.silencesActive.set(silences.length);
    },
  };
}
