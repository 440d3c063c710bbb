// Pure pieces shared by the report renderers: headings, "top" tables, the histogram chart.
import { formatTable, thousands } from '../format/table.js';
import { barChart, sparkline } from './charts.js';
import type { TopItem } from './sources.js';
import type { HistogramBucket, ReportWindow } from './window.js';

export interface RenderOptions {
  /** Line width the charts fit in. @defaultValue 80 */
  width?: number;
}

export const DEFAULT_WIDTH = 80;

/** "zone 101" or "all zones"; the window as "2024-10-09 … 2024-10-15 (7 UTC days)". */
export function scopeText(zone: number | null, w: ReportWindow): string {
  const days = w.days === 1 ? `${w.from} (1 UTC day)` : `${w.from} … ${w.to} (${w.days} UTC days)`;
  return `${zone === null ? 'all zones' : `zone ${zone}`} · ${days}`;
}

export function percent(count: number, total: number): string {
  return total > 0 ? `${((count / total) * 100).toFixed(1)}%` : '';
}

const keyText = (key: string | number | null) => (key === null ? '(none)' : String(key));

/**
 * A titled table of a "top" list with counts and shares of `total`; when the list leaves entries out,
 * a last line counts them as "(others)".
 */
export function topTable(
  title: string,
  keyHeader: string,
  items: ReadonlyArray<TopItem<string | number | null> & { detail?: string | null }>,
  total: number,
): string {
  if (items.length === 0) return `${title}: none`;
  const rows = items.map((i) => ({ key: keyText(i.key), detail: i.detail ?? '', count: i.count }));
  const others = total - items.reduce((sum, i) => sum + i.count, 0);
  if (others > 0) rows.push({ key: '(others)', detail: '', count: others });
  const hasDetail = items.some((i) => i.detail);
  return `${title}\n${formatTable(
    [
      { header: keyHeader, value: (r: (typeof rows)[number]) => r.key },
      ...(hasDetail ? [{ header: 'name', value: (r: (typeof rows)[number]) => r.detail }] : []),
      { header: 'count', value: (r) => thousands(r.count), right: true },
      { header: 'share', value: (r) => percent(r.count, total), right: true },
    ],
    rows,
    70,
  )}`;
}

/** `2024-10-15 13:00` for hourly buckets, `2024-10-15` for daily ones. */
export function bucketLabel(start: string, bucket: ReportWindow['bucket']): string {
  return bucket === 'hour' ? `${start.slice(0, 10)} ${start.slice(11, 16)}` : start.slice(0, 10);
}

/** A sparkline summary line, then one bar per bucket. */
export function histogramChart(
  what: string,
  buckets: readonly HistogramBucket[],
  w: ReportWindow,
  width: number,
): string {
  const counts = buckets.map((b) => b.count);
  const title = `${what} per ${w.bucket} (UTC)`;
  const spark = sparkline(counts, Math.max(8, width - title.length - 3));
  // An empty bucket the archive does not cover (or that has not begun) says so: it is not a known 0.
  return [
    `${title}  ${spark}`.trimEnd(),
    ...barChart(
      buckets.map((b) => ({ label: bucketLabel(b.start, w.bucket), value: b.count, note: b.status })),
      { width },
    ),
  ].join('\n');
}
