// Pure: the Shield (WAF) report as text.
import { thousands } from '../format/table.js';
import { DEFAULT_WIDTH, histogramChart, scopeText, topTable, type RenderOptions } from './render-common.js';
import type { ShieldReport } from './shield-report.js';

export function renderShieldReport(r: ShieldReport, opts: RenderOptions = {}): string {
  const width = opts.width ?? DEFAULT_WIDTH;
  const head = `Shield events · ${scopeText(r.zone, r.window)}`;
  if (r.total === 0) {
    return `${head}\nno Shield events archived in this range (is the zone configured and synced? see \`edgelog status\`)\n`;
  }
  const zones = r.zones.length === 1 ? '1 zone' : `${r.zones.length} zones`;
  const sections = [
    `${head}\ntotal: ${thousands(r.total)} events in ${zones}`,
    histogramChart('events', r.histogram, r.window, width),
    topTable(
      'top rules',
      'rule',
      r.rules.map((x) => ({ ...x, detail: x.message })),
      r.total,
    ),
    topTable('severities', 'severity', r.severities, r.total),
    topTable('statuses', 'status', r.statuses, r.total),
    topTable('top countries', 'country', r.countries, r.total),
    topTable('top ASNs', 'asn', r.asns, r.total),
    topTable('methods', 'method', r.methods, r.total),
  ];
  if (r.zone === null && r.zones.length > 1) {
    sections.splice(
      1,
      0,
      topTable(
        'events per zone',
        'zone',
        r.zones.map((z) => ({ key: z.zone, count: z.count })),
        r.total,
      ),
    );
  }
  return `${sections.join('\n\n')}\n`;
}
