// The timestamps a day's file holds, kept beside it as an empty marker file whose name carries them:
// `_timestamps_<min>_<max>` in the zone-day's directory. The history engine guards each part of its
// views with these bounds, so DuckDB's optimizer drops the files of the days a statement's filter on
// `timestamp` or `time` cannot match without opening them (history-views.ts). A day's rows may carry
// any timestamp (the API says nothing about it): the bounds are read from the file written, never
// assumed from the day.
//
// The name is the record: a directory listing, which the reader makes anyway, reads every bound without
// opening a file, and an empty file appears whole or not at all. Parquet tools (pyarrow, Spark) skip
// names that start with `_`, and no reader of this codebase matches anything but data.parquet.
//
// Publication keeps one promise: at every instant, some marker in the directory covers the data.parquet
// in it. The marker of a new file is made (and the directory synced) before the file is renamed into
// place, and the older markers go only after it is; a reader takes the union of the markers it finds.
// A crash leaves extra markers (a wider union) or none (no pruning), never a narrower one. A file
// replaced after a reader listed the markers (DuckDB opens it later) holds every row of the one it
// replaced (day-file.ts carries them over), and those lie in the range listed: the reader sees at least
// the rows of the file it listed, as it did before markers existed.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX = '_timestamps_';
/** Decimal BIGINTs, a sign allowed: a timestamp before 1970 is a timestamp. */
const MARKER = /^_timestamps_(-?\d{1,19})_(-?\d{1,19})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The least and greatest `timestamp` in a file (inclusive). */
export interface TimeRange {
  min: bigint;
  max: bigint;
}

/** Pure: the marker's name for a range. */
export function timeRangeName(range: TimeRange): string {
  if (!isInt64(range.min) || !isInt64(range.max) || range.min > range.max)
    throw new RangeError(`not a timestamp range: ${range.min}..${range.max}`);
  return `${PREFIX}${range.min}_${range.max}`;
}

/** Pure: the range a directory entry's name records, or null when it is no marker. */
export function timeRangeOfName(name: string): TimeRange | null {
  const m = MARKER.exec(name);
  if (!m) return null;
  const min = BigInt(m[1]!);
  const max = BigInt(m[2]!);
  return isInt64(min) && isInt64(max) && min <= max ? { min, max } : null;
}

/** Pure: the union of the markers among a directory's names; null when there is none. */
export function timeRangeOfNames(names: Iterable<string>): TimeRange | null {
  let out: TimeRange | null = null;
  for (const name of names) {
    const r = timeRangeOfName(name);
    if (r === null) continue;
    out =
      out === null ? r : { min: r.min < out.min ? r.min : out.min, max: r.max > out.max ? r.max : out.max };
  }
  return out;
}

function isInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

/** Makes the marker of `range` in `dir` (before the file it describes is published). */
export function writeTimeRange(dir: string, range: TimeRange): string {
  const name = timeRangeName(range);
  writeFileSync(join(dir, name), '');
  return name;
}

/** Removes every marker in `dir` but `keep` (after the file `keep` describes is published). */
export function removeTimeRangesBut(dir: string, keep: string | null): void {
  for (const name of readdirSync(dir))
    if (name !== keep && name.startsWith(PREFIX)) rmSync(join(dir, name), { force: true });
}
