// Pure terminal charts: values in, lines out. Block characters give eighth-of-a-cell precision.
import { thousands } from '../format/table.js';

/** Partial cells, by eighths: index n is n/8 of a cell. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;
const FULL = '█';
/** Sparkline levels, lowest first. */
const LEVELS = '▁▂▃▄▅▆▇█';

const clean = (v: number) => (Number.isFinite(v) && v > 0 ? v : 0);

/**
 * A bar `value / max` of `width` cells long, in eighths of a cell. A positive value never rounds to
 * nothing (it shows at least ▏), zero shows nothing, and the bar never exceeds `width`.
 */
export function bar(value: number, max: number, width: number): string {
  const v = clean(value);
  const m = clean(max);
  const cells = Math.max(0, Math.floor(width));
  if (v === 0 || m === 0 || cells === 0) return '';
  let eighths = Math.round((Math.min(v, m) / m) * cells * 8);
  if (eighths === 0) eighths = 1;
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

export interface BarRow {
  label: string;
  value: number;
  /** Shown in place of the bar and the count: the value is not known (e.g. `not fetched`). */
  note?: string | undefined;
}

export interface BarChartOptions {
  /** Total line width in columns (labels and counts included); bars get what is left, at least 1. */
  width: number;
  /** How counts are written. @defaultValue thousands separators */
  format?: (value: number) => string;
}

/**
 * Horizontal bars, one line per row: `label │█████▍    1,234`. Bars scale to the largest value; labels
 * are left-aligned and counts right-aligned in their own columns. A row with a note shows the note
 * instead (`label │ not fetched`).
 */
export function barChart(rows: readonly BarRow[], opts: BarChartOptions): string[] {
  if (rows.length === 0) return [];
  const format = opts.format ?? thousands;
  const counts = rows.map((r) => (r.note === undefined ? format(r.value) : ''));
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const countWidth = Math.max(...counts.map((c) => c.length));
  const barWidth = Math.max(1, opts.width - labelWidth - countWidth - 3);
  const max = Math.max(...rows.map((r) => (r.note === undefined ? clean(r.value) : 0)));
  return rows.map((r, i) => {
    const label = r.label.padEnd(labelWidth);
    if (r.note !== undefined) return `${label} │ ${r.note}`;
    return `${label} │${bar(r.value, max, barWidth).padEnd(barWidth)} ${counts[i]!.padStart(countWidth)}`;
  });
}

/**
 * Shrinks a series to at most `width` points, each the largest of the values it stands for (a spike
 * stays visible); null only when all of them are null.
 */
export function downsample(values: ReadonlyArray<number | null>, width: number): Array<number | null> {
  const n = Math.max(1, Math.floor(width));
  if (values.length <= n) return [...values];
  const out: Array<number | null> = [];
  for (let i = 0; i < n; i++) {
    const group = values.slice(
      Math.floor((i * values.length) / n),
      Math.floor(((i + 1) * values.length) / n),
    );
    const present = group.filter((v): v is number => v !== null);
    out.push(present.length === 0 ? null : Math.max(...present));
  }
  return out;
}

/**
 * One character per value, ▁ to █ scaled from 0 to the largest value; zero, negative and null values
 * are a blank, so "nothing" reads differently from "a little". At most `width` characters.
 */
export function sparkline(values: ReadonlyArray<number | null>, width = Infinity): string {
  const points = Number.isFinite(width) ? downsample(values, width) : [...values];
  const max = Math.max(0, ...points.map((v) => clean(v ?? 0)));
  return points
    .map((v) => {
      const c = clean(v ?? 0);
      if (c === 0) return ' ';
      return LEVELS[Math.min(LEVELS.length - 1, Math.ceil((c / max) * LEVELS.length) - 1)]!;
    })
    .join('');
}
