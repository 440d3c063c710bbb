// Pure: the origin report as text.
import { thousands } from '../format/table.js';
import type { OriginReport } from './origin-report.js';
import { DEFAULT_WIDTH, histogramChart, scopeText, topTable, type RenderOptions } from './render-common.js';

export function renderOriginReport(r: OriginReport, opts: RenderOptions = {}): string {
  const width = opts.width ?? DEFAULT_WIDTH;
  const head = `origin errors · ${scopeText(r.zone, r.window)}`;
  if (r.total === 0) {
    return `${head}\nno origin errors archived in this range (is the zone configured and synced? see \`edgelog status\`)\n`;
  }
  const zones = r.zones.length === 1 ? '1 zone' : `${r.zones.length} zones`;
  const sections = [
    `${head}\ntotal: ${thousands(r.total)} errors in ${zones}`,
    histogramChart('errors', r.histogram, r.window, width),
    topTable('status classes', 'class', r.statusClasses, r.total),
    topTable('top status codes', 'status', r.statusCodes, r.total),
    topTable('top error codes', 'error code', r.errorCodes, r.total),
    topTable('top request URLs', 'url', r.requestUrls, r.total),
    topTable('top server zones', 'server zone', r.serverZones, r.total),
  ];
  if (r.zone === null && r.zones.length > 1) {
    sections.splice(
      1,
      0,
      topTable(
        'errors per zone',
        'zone',
        r.zones.map((z) => ({ key: z.zone, count: z.count })),
        r.total,
      ),
    );
  }
  return `${sections.join('\n\n')}\n`;
}
