// deploy/grafana-dashboard.json and deploy/prometheus-rules.yml are built on the metrics edgelog serves:
// the dashboard parses, and every metric either file names exists in the registry (a renamed metric
// fails here instead of leaving an empty panel or an alert that never fires).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createMetrics } from '../../src/monitoring/index.js';
import { collectProcessMetrics } from '../../src/monitoring/process-metrics.js';

const read = (name: string) => readFileSync(new URL(`../../deploy/${name}`, import.meta.url), 'utf8');

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string }>;
  fieldConfig?: { defaults?: { unit?: string } };
}

interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; definition?: string; query?: unknown }> };
}

/** Every family the registry serves, and for a histogram the names of its series. */
function served(): Set<string> {
  const { set } = createMetrics(parseConfig({}));
  collectProcessMetrics(set.registry);
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

  it('serves no gauge named _total (Prometheus keeps the suffix for counters; promtool check metrics refuses it)', () => {
    const { set } = createMetrics(parseConfig({}));
    collectProcessMetrics(set.registry);
    const gauges = set.registry.getMetricsAsArray().filter((m) => String(m.type) === 'gauge');
    expect(gauges.length).toBeGreaterThan(10);
    expect(gauges.map((m) => m.name).filter((n) => n.endsWith('_total'))).toEqual([]);
  });

  it('grafana-dashboard.json parses, and each panel queries metrics the registry serves', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as Dashboard;
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

  it('grafana-dashboard.json: an instance variable, and every panel and the zone list filtered by it', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as Dashboard;
    const instance = dashboard.templating.list.find((v) => v.name === 'instance');
    expect(instance?.type).toBe('query');
    expect(instance?.definition).toMatch(/^label_values\(edgelog_[a-z_]+, instance\)$/);
    const zone = dashboard.templating.list.find((v) => v.name === 'zone');
    expect(zone?.definition).toContain('instance=~"$instance"');
    for (const p of dashboard.panels.filter((q) => q.type !== 'row')) {
      for (const t of p.targets!) {
        // Each metric named is followed by a selector that holds the instance filter.
        const selectors = [...t.expr.matchAll(/\b((?:edgelog|process|nodejs)_[a-z0-9_]+)(\{[^}]*\})?/g)];
        for (const [, name, selector] of selectors)
          expect(selector ?? '', `${p.title}: ${name}`).toContain('instance=~"$instance"');
      }
    }
  });

  it('grafana-dashboard.json: no panel plots bytes beside another unit', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as Dashboard;
    for (const p of dashboard.panels.filter((q) => q.type !== 'row')) {
      const bytes = p.targets!.map((t) => /_bytes\b/.test(t.expr));
      expect(new Set(bytes).size, p.title).toBe(1);
      if (bytes[0]) expect(p.fieldConfig?.defaults?.unit, p.title).toBe('bytes');
    }
  });

  it('prometheus-rules.yml alerts on a stale zone, days at risk, lost history entries, Redis down and the worker down, with metrics the registry serves', () => {
    const text = read('prometheus-rules.yml');
    const alerts = [...text.matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]);
    expect(alerts).toEqual([
      'EdgelogZoneStale',
      'EdgelogZoneDaysAtRisk',
      'EdgelogHistoryEntriesLost',
      'EdgelogRedisDown',
      'EdgelogWorkerDown',
      'EdgelogMetricsAbsent',
    ]);
    const exprs = [...text.matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1]!);
    expect(exprs).toHaveLength(alerts.length);
    expect(exprs[0]).toMatch(/^edgelog_zone_ingestion_lag_seconds > /);
    expect(exprs[1]).toBe('edgelog_zone_dates_at_risk > 0');
    expect(exprs[2]).toBe('edgelog_history_lost_entries > 0');
    expect(exprs[4]).toBe('up{job="edgelog"} == 0');
    expect(exprs[5]).toMatch(/^absent\(edgelog_[a-z_]+\{job="edgelog"\}\)$/);
    for (const e of exprs.filter((x) => !x.startsWith('up{'))) {
      const found = e.match(METRIC) ?? [];
      expect(found.length, e).toBeGreaterThan(0);
      for (const name of found) expect(names.has(name), `${name} is not served`).toBe(true);
    }
  });
});
