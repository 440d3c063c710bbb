// Pure: the published files of a table as the parts of its view, one per day, each guarded by the
// timestamps its files hold (time-range.ts). The guard is true of every row of those files, so it
// changes no result; what it buys is that DuckDB's optimizer, pushing a statement's filter on
// `timestamp` or `time` into each part, finds the two contradict and drops the part before any of its
// files is opened (a statement over 7 days of 30 opens the 7 days' files only).
//
// Files whose timestamps are not recorded go in parts without a guard: they are always read.
//
// A statement sorted by time first (statement-bounds.ts timeOrder) gets the files and parts in that order:
// a top-N then meets the rows it keeps first and skips the rest by their statistics.
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';
import type { PublishedDay } from './published-days.js';
import type { TimeOrder } from './statement-bounds.js';
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
 * statement cannot use the guards, statement-bounds.ts guardsMayHelp), every file is in one part. With an
 * `order`, the files and the parts are listed in it (inTimeOrder); else by day, as listed.
 */
export function fileParts(
  table: HistoryTable,
  listed: readonly PublishedDay[],
  guarded = true,
  order: TimeOrder | null = null,
): FilePart[] {
  if (listed.length === 0) return [];
  const days = inTimeOrder(listed, order);
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
  const byDay = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  // In an order, a group's first file is its newest (or oldest): the groups go by theirs.
  const first = new Map(days.map((d, i) => [d, i]));
  const ordered =
    order === null ? byDay : byDay.sort((a, b) => first.get(a.days[0]!)! - first.get(b.days[0]!)!);
  return ordered.map((g) => ({
    from: entryFiles(table, g.days),
    guard: g.range === null ? null : timeGuard(g.range),
  }));
}

/**
 * Pure: `days` with the newest timestamps first (by the latest each holds) or the oldest first (by the
 * earliest), those of unknown timestamps last; as given without an order. Stable.
 */
export function inTimeOrder(days: readonly PublishedDay[], order: TimeOrder | null): readonly PublishedDay[] {
  if (order === null) return days;
  const key = (d: PublishedDay): bigint | null =>
    d.timestamps === undefined ? null : order === 'newest' ? d.timestamps.max : d.timestamps.min;
  return [...days].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? 1 : -1;
    const before = order === 'newest' ? ka > kb : ka < kb;
    return before ? -1 : ka === kb ? 0 : 1;
  });
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
