// Silenced alerts at scrape time: for each configured rule, how many of its zones' alerts a silence
// holds now (the alerts/silences.ts decision the evaluator makes).
import { alertLabels, silenceFromRow, silencing } from '../alerts/silences.js';
import type { AlertsStore, SilencesStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export function silencesCollector(
  m: MetricSet,
  store: { alerts: Pick<AlertsStore, 'listStates'>; silences: Pick<SilencesStore, 'list'> },
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
  now: () => number,
): Collector {
  return {
    name: 'silences',
    async collect() {
      const at = now();
      const silences = (await store.silences.list({ activeAt: at })).map(silenceFromRow);
      const severity = new Map(rules.map((r) => [r.name, r.severity]));
      const held = new Map<string, number>();
      if (silences.length > 0) {
        for (const s of await store.alerts.listStates()) {
          if (!severity.has(s.rule)) continue;
          const labels = alertLabels(s.rule, s.source, s.zone_id, severity.get(s.rule));
          if (silencing(silences, labels, at).length > 0) held.set(s.rule, (held.get(s.rule) ?? 0) + 1);
        }
      }
      m.alertSilenced.reset();
      for (const { name } of rules) m.alertSilenced.set({ rule: name }, held.get(name) ?? 0);
      m.silencesActive.set(silences.length);
    },
  };
}
