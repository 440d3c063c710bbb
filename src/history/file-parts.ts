// Pure: the published files of a table as the parts of its view, one per day, each guarded by the
// timestamps its files hold (time-range.ts). The guard is true of every row of those files, so it
// changes no result; what it buys is that DuckDB's optimizer, pushing a statement's filter on
// `timestamp` or `time` into each part, finds the two contradict and drops the part before any of its
// files is opened (a statement over 7 days of 30 opens the 7 days' files only).
//
// Files whose timestamps are not recorded go in parts without a guard: they are always read.
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';
import type { PublishedDay } from './published-days.js';
import { sqlStringLiteral } from './statement-tables.js';
import type { TimeRange } from './time-range.js';

export interface FilePart {
  /** A relation with the table's file columns (no `time`). */
  from: string;
  /** A condition on its rows that holds for every one of them, or null. */
  guard: string | null;
}

/**
 * Timestamps DuckDB's TIMESTAMP can hold as milliseconds (its microseconds fit an int64): within them the
 * guard also bounds `time`, outside them only `timestamp` (epoch_ms would fail on the bound itself).
 */
const TIME_LIMIT_MS = 9_000_000_000_000_000n;

/** Pure: the guard of a range, on `timestamp` and, where it can be, on `time` (epoch_ms of it). */
export function timeGuard(r: TimeRange): string {
  const onTimestamp = `"timestamp" BETWEEN ${r.min} AND ${r.max}`;
  const inTime = (v: bigint) => v >= -TIME_LIMIT_MS && v <= TIME_LIMIT_MS;
  if (!inTime(r.min) || !inTime(r.max)) return onTimestamp;
  return `${onTimestamp} AND epoch_ms("timestamp") BETWEEN epoch_ms(${r.min}::BIGINT) AND epoch_ms(${r.max}::BIGINT)`;
}

/**
 * Pure: the parts of `table`'s files; empty when there are none. Unguarded (`guarded` false: the
 * statement cannot use the guards, statement-bounds.ts guardsMayHelp), every file is in one part.
 */
export function fileParts(table: HistoryTable, days: readonly PublishedDay[], guarded = true): FilePart[] {
  if (days.length === 0) return [];
  // The quarantine has no timestamp, and its `source=` would collide with its own `source` column: its
  // files are read whole and without partitions.
  if (table === 'quarantined_entries')
    return [{ from: `read_parquet([${paths(days)}], hive_partitioning = false)`, guard: null }];
  if (!guarded) return [{ from: entryFiles(table, days), guard: null }];
  const groups = new Map<string, { days: PublishedDay[]; range: TimeRange | null }>();
  for (const d of days) {
    const key = `${d.day}/${d.timestamps ? 'known' : 'unknown'}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { days: [d], range: d.timestamps ?? null });
    else {
      group.days.push(d);
      if (group.range !== null && d.timestamps !== undefined) group.range = union(group.range, d.timestamps);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, g]) => ({
      from: entryFiles(table, g.days),
      guard: g.range === null ? null : timeGuard(g.range),
    }));
}

const union = (a: TimeRange, b: TimeRange): TimeRange => ({
  min: a.min < b.min ? a.min : b.min,
  max: a.max > b.max ? a.max : b.max,
});

const paths = (days: readonly PublishedDay[]) => days.map((d) => sqlStringLiteral(d.file)).join(', ');

/**
 * Entry files as a relation with the table's columns. The zone and `log_date` come from the `zone=` and
 * `day=` of the path (the same values as the file's columns, by the layout: a zone-day's file holds the
 * rows of that zone and log_date), so that DuckDB skips the files of other zones or days without opening
 * them when a statement filters on them, and reads a constant instead of a column.
 */
function entryFiles(table: HistoryTable, days: readonly PublishedDay[]): string {
  const { columns, zoneColumn } = HISTORY_COLUMNS[table];
  const select = columns
    .map(([n]) => (n === zoneColumn ? `"zone" AS "${n}"` : n === 'log_date' ? `"day" AS "${n}"` : `"${n}"`))
    .join(', ');
  return `(SELECT ${select} FROM read_parquet([${paths(days)}], hive_partitioning = true, hive_types = {'zone': BIGINT, 'day': VARCHAR}))`;
}
