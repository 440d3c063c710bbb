// Pure: a sql rule's result as alerts. Each row is one alert: its columns but `value` are its labels (as
// text), a numeric `value` column its value; the labels, as canonical JSON, key the alert's state, so
// the same row on the next run is the same alert, and a row that is gone is an alert that resolved.
import { createHash } from 'node:crypto';
import type { QueryValue } from '../store/store.js';

export interface SeriesRow {
  /** Canonical JSON of the labels (keys sorted): the state's key. */
  series: string;
  labels: Record<string, string>;
  value: number | null;
}

export interface SqlRows {
  series: SeriesRow[];
  /** What was odd about the result (duplicate columns or rows, a value that is not a number). */
  problems: string[];
}

/** The column that holds the alert's value. */
export const VALUE_COLUMN = 'value';

export function labelText(v: QueryValue): string {
  if (v === null) return '';
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  return String(v);
}

function numberOf(v: QueryValue): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** Canonical JSON of labels: keys sorted, so the same labels always give the same key. */
export function seriesKey(labels: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(labels).sort();
  return JSON.stringify(Object.fromEntries(sorted.map((k) => [k, labels[k]])));
}

export function sqlRows(columns: readonly string[], rows: ReadonlyArray<readonly QueryValue[]>): SqlRows {
  const problems: string[] = [];
  const seen = new Set<string>();
  const use: number[] = [];
  columns.forEach((c, i) => {
    if (seen.has(c)) problems.push(`column "${c}" appears twice: the first is used`);
    else {
      seen.add(c);
      use.push(i);
    }
  });
  const valueAt = columns.indexOf(VALUE_COLUMN);
  const series: SeriesRow[] = [];
  const keys = new Set<string>();
  for (const row of rows) {
    // No prototype: a column named `__proto__` is a label, not a prototype to set (and lose the value).
    const labels = Object.create(null) as Record<string, string>;
    for (const i of use) if (i !== valueAt) labels[columns[i]!] = labelText(row[i] ?? null);
    const key = seriesKey(labels);
    if (keys.has(key)) {
      problems.push(`two rows with the same labels ${key}: the first is used`);
      continue;
    }
    keys.add(key);
    const value = valueAt >= 0 ? numberOf(row[valueAt] ?? null) : null;
    if (valueAt >= 0 && value === null && row[valueAt] !== null)
      problems.push(`the value of ${key} is not a number`);
    series.push({ series: key, labels, value });
  }
  return { series, problems };
}

/** An alert of a sql rule: the same for the same rule and labels, across restarts and machines. */
export function seriesFingerprint(rule: string, series: string): string {
  return createHash('sha256').update(`${rule}\u0000sql\u0000${series}`).digest('hex').slice(0, 16);
}

/** The zone a row names (a `zone` column holding a zone id), else 0. */
export function zoneOf(labels: Readonly<Record<string, string>>): number {
  const z = labels.zone;
  return z !== undefined && /^[1-9]\d{0,15}$/.test(z) && Number.isSafeInteger(Number(z)) ? Number(z) : 0;
}
