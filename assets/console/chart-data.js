// Pure (no DOM, tested in Node: test/console/chart-data.test.ts): which columns of a query's result make
// a chart, and the points of each line. A result is charted when one column holds times (ISO-8601 UTC
// text as the archive writes `time`, `hour`, `log_date`, `taken_at`; or milliseconds in a column named as
// a time) and at least one other column holds only numbers.

/** ISO-8601 days and instants, as the archive writes them (`2026-11-22`, `2026-11-22T15:00:00Z`…). */
const ISO_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Columns that hold milliseconds since the epoch (`timestamp`, `hour`, `bucket`, `created_at`…). */
const MS_NAME = /^(?:timestamp|time|hour|day|bucket|ts)$|_(?:at|ts|ms|time)$/;

/** Milliseconds from 2000 to 2100: a count that happens to sit in a time-named column is not charted. */
const MS_MIN = 946_684_800_000;
const MS_MAX = 4_102_444_800_000;

/** A value's time in ms, or null when it is not one of `kind`'s. */
function timeOf(value, kind) {
  if (kind === 'iso') {
    if (typeof value !== 'string' || !ISO_TIME.test(value)) return null;
    // A bare day or an instant without an offset is UTC, as the archive means it.
    const text =
      value.length === 10
        ? `${value}T00:00:00Z`
        : /(?:Z|[+-]\d{2}:?\d{2}|[+-]\d{2})$/.test(value)
          ? value
          : `${value}Z`;
    const ms = Date.parse(text.replace(' ', 'T'));
    return Number.isFinite(ms) ? ms : null;
  }
  return typeof value === 'number' && Number.isInteger(value) && value >= MS_MIN && value <= MS_MAX
    ? value
    : null;
}

/** Whether every value of `column` is a time of `kind` (nulls aside, one at least). */
function allTimes(rows, column, kind) {
  let seen = false;
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    if (timeOf(v, kind) === null) return false;
    seen = true;
  }
  return seen;
}

/** Whether every value of `column` is a finite number (nulls aside, one at least). */
function allNumbers(rows, column) {
  let seen = false;
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    seen = true;
  }
  return seen;
}

/**
 * The chart of a result (`columns`, `rows` as objects), or null when it has none: `time` (the first time
 * column), `series` (every other numeric column: `name`, `points` as [ms, value] in time order, rows
 * without a time or a value left out), and the extent of both axes.
 */
export function timeSeries(columns, rows) {
  if (rows.length < 2) return null;
  let time = null;
  let kind = null;
  for (const c of columns) {
    if (allTimes(rows, c, 'iso')) [time, kind] = [c, 'iso'];
    else if (MS_NAME.test(c) && allTimes(rows, c, 'ms')) [time, kind] = [c, 'ms'];
    if (time !== null) break;
  }
  if (time === null) return null;
  const series = columns
    .filter((c) => c !== time && allNumbers(rows, c))
    .map((name) => ({
      name,
      points: rows
        .map((row) => [timeOf(row[time], kind), row[name]])
        .filter(([t, v]) => t !== null && typeof v === 'number')
        .sort((x, y) => x[0] - y[0]),
    }));
  if (series.length === 0) return null;
  const all = series.flatMap((s) => s.points);
  const ts = all.map(([t]) => t);
  const vs = all.map(([, v]) => v);
  return {
    time,
    series,
    from: Math.min(...ts),
    to: Math.max(...ts),
    min: Math.min(0, ...vs),
    max: Math.max(0, ...vs),
  };
}
