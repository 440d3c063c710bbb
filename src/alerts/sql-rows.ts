// Pure: a sql rule's result as alerts. Each row is one alert: its columns but `value` are its labels (as
// text), a numeric `value` column its value; the labels, as canonical JSON, key the alert's state, so
// the same row on the next run is the same alert, and a row that is gone is an alert that resolved.
import { createHash } from 'node:crypto';
import type { QueryValue } from '../store/store.js';
import { cutText, MAX_LABEL_CHARS, MAX_LABEL_NAME_CHARS, MAX_LABELS } from './label-bounds.js';

export interface SeriesRow {
  /** Canonical JSON of the labels (keys sorted): the state's key. */
  series: string;
  labels: Record<string, string>;
  value: number | null;
  /** The labels whose values were cut to MAX_LABEL_CHARS (absent: none), for the notice to say so. */
  trimmed?: string[];
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

/**
 * The columns kept as labels (MAX_LABELS at most, names cut to MAX_LABEL_NAME_CHARS), the first of
 * two with one name; what was left out is said.
 */
function labelColumns(columns: readonly string[], problems: string[]): Array<[number, string]> {
  const seen = new Set<string>();
  const use: Array<[number, string]> = [];
  columns.forEach((c, i) => {
    const name = cutText(c, MAX_LABEL_NAME_CHARS);
    if (name !== c)
      problems.push(`column name ${JSON.stringify(name)} cut to ${MAX_LABEL_NAME_CHARS} characters`);
    if (seen.has(name)) problems.push(`column "${name}" appears twice: the first is used`);
    else if (c !== VALUE_COLUMN && seen.size - (seen.has(VALUE_COLUMN) ? 1 : 0) >= MAX_LABELS)
      problems.push(`column "${name}" left out: a row keeps ${MAX_LABELS} labels at most`);
    else {
      seen.add(name);
      use.push([i, name]);
    }
  });
  return use;
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
  const use = labelColumns(columns, problems);
  const valueAt = columns.indexOf(VALUE_COLUMN);
  const series: SeriesRow[] = [];
  const keys = new Set<string>();
  let cut = 0;
  for (const row of rows) {
    // No prototype: a column named `__proto__` is a label, not a prototype to set (and lose the value).
    const labels = Object.create(null) as Record<string, string>;
    const trimmed: string[] = [];
    for (const [i, name] of use) {
      if (i === valueAt) continue;
      const text = labelText(row[i] ?? null);
      labels[name] = cutText(text, MAX_LABEL_CHARS);
      if (labels[name] !== text) trimmed.push(name);
    }
    const key = seriesKey(labels);
    if (keys.has(key)) {
      problems.push(`two rows with the same labels ${brief(key)}: the first is used`);
      continue;
    }
    keys.add(key);
    if (trimmed.length > 0) cut++;
    const value = valueAt >= 0 ? numberOf(row[valueAt] ?? null) : null;
    if (valueAt >= 0 && value === null && row[valueAt] !== null)
      problems.push(`the value of ${brief(key)} is not a number`);
    series.push({ series: key, labels, value, ...(trimmed.length > 0 ? { trimmed } : {}) });
  }
  if (cut > 0)
    problems.push(`${cut} row${cut === 1 ? '' : 's'} with a label over ${MAX_LABEL_CHARS} characters: cut`);
  return { series, problems };
}

/** A series key as a problem names it: its start, however long its labels. */
const brief = (key: string) => cutText(key, 200);

/** An alert of a sql rule: the same for the same rule and labels, across restarts and machines. */
export function seriesFingerprint(rule: string, series: string): string {
  return createHash('sha256').update(`${rule}\u0000sql\u0000${series}`).digest('hex').slice(0, 16);
}

/** The zone a row names (a `zone` column holding a zone id), else 0. */
export function zoneOf(labels: Readonly<Record<string, string>>): number {
  const z = labels.zone;
  return z !== undefined && /^[1-9]\d{0,15}$/.test(z) && Number.isSafeInteger(Number(z)) ? Number(z) : 0;
}
