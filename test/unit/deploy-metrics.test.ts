// deploy/grafana-dashboard.json and deploy/prometheus-rules.yml are built on the metrics edgelog serves:
// the dashboard parses, and every metric either file names exists in the registry (a renamed metric
// fails here instead of leaving an empty panel or an alert that never fires).
import { readFileSync } from 'node:fs';
import { collectDefaultMetrics } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createMetrics } from '../../src/metrics/index.js';

const read = (name: string) => readFileSync(new URL(`../../deploy/${name}`, import.meta.url), 'utf8');

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string }>;
}

/** Every family the registry serves, and for a histogram the names of its series. */
function served(): Set<string> {
  const { set } = createMetrics(parseConfig({}));
  collectDefaultMetrics({ register: set.registry });
  const names = new Set<string>();
  for (const m of set.registry.getMetricsAsArray()) {
    names.add(m.name);
    if (String(m.type) === 'histogram')
      for (const s of ['_bucket', '_sum', '_count']) names.add(`${m.name}${s}`);
  }
  return names;
}

const METRIC = /\b(?:edgelog|process|nodejs)_[a-z0-9_]+\b/g;

describe('deploy/', () => {
  const names = served();

  it('grafana-dashboard.json parses, and each panel queries metrics the registry serves', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
      uid: string;
      panels: Panel[];
      templating: { list: Array<{ name: string; definition?: string }> };
    };
    expect(dashboard.uid).toBe('edgelog');
    const panels = dashboard.panels.filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThanOrEqual(12);
    const used = new Set<string>();
    for (const p of panels) {
      expect(p.datasource?.uid, p.title).toBe('${datasource}');
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets!) {
        const found = t.expr.match(METRIC) ?? [];
        expect(found.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const name of found) {
          expect(names.has(name), `${p.title}: ${name} is not served`).toBe(true);
          used.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    for (const v of dashboard.templating.list) {
      for (const name of v.definition?.match(METRIC) ?? []) expect(names.has(name), name).toBe(true);
    }
    // Every edgelog metric has a panel.
    const edgelog = [...names].filter((n) => n.startsWith('edgelog_') && !/_(bucket|sum|count)$/.test(n));
    const unused = edgelog.filter((n) => !used.has(n) && n !== 'edgelog_scrape_errors_total');
    expect(unused).toEqual([]);
  });

  it('prometheus-rules.yml alerts on a stale zone and on days at risk, with metrics the registry serves', () => {
    const text = read('prometheus-rules.yml');
    const alerts = [...text.matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]);
    expect(alerts).toEqual(['EdgelogZoneStale', 'EdgelogZoneDaysAtRisk', 'EdgelogRedisDown']);
    const exprs = [...text.matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1]!);
    expect(exprs).toHaveLength(alerts.length);
    expect(exprs[0]).toMatch(/^edgelog_zone_ingestion_lag_seconds > /);
    expect(exprs[1]).toBe('edgelog_zone_dates_at_risk > 0');
    for (const e of exprs) {
      const found = e.match(METRIC) ?? [];
      expect(found.length, e).toBeGreaterThan(0);
      for (const name of found) expect(names.has(name), `${name} is not served`).toBe(true);
    }
  });
});
