// Pure: what the view of an entry table must hold for one statement (statement-bounds.ts,
// statement-columns.ts), and for several statements that share one view (a console page's statements,
// archive-queries.ts readEach): the widest of what each needs — every row one of them can see, every
// column one of them names — so the view holds all that each statement would read from a view of its own,
// and the rest it holds is what that statement's own filter leaves out or never names. The files are
// listed in the time order of the statements that sort by time, when they agree.
import type { HistoryTable } from './layout.js';
import {
  dayBounds,
  guardsMayHelp,
  timeOrder,
  timestampBounds,
  type DayBounds,
  type TimeOrder,
  type TimestampBounds,
} from './statement-bounds.js';
import { columnsToCopy, namedColumns } from './statement-columns.js';
import { historyTablesIn } from './statement-tables.js';

export interface ViewNeeds {
  /** The timestamps a statement can see (null: any). */
  bounds: TimestampBounds | null;
  /** Whether the parts' guards may let DuckDB drop files (guardsMayHelp). */
  guards: boolean;
  /** The columns copied from the store (null: every one). */
  columns: ReadonlySet<string> | null;
  /** The days of `log_date` a statement can see (null: any). */
  days: DayBounds | null;
  /** The time order the files are listed in (null: by day). */
  order: TimeOrder | null;
}

/** Pure: what `table`'s view must hold for the statement of `tree` (json_serialize_sql's `statements`). */
export function viewNeeds(tree: unknown, table: HistoryTable): ViewNeeds {
  const bounds = timestampBounds(tree, table);
  return {
    bounds,
    guards: guardsMayHelp(tree, bounds),
    columns: columnsToCopy(table, namedColumns(tree)),
    days: dayBounds(tree, table),
    order: timeOrder(tree, table),
  };
}

/** A side of a range: null is unbounded, and wins. */
const wider = <T>(a: T | null, b: T | null, pick: (a: T, b: T) => T): T | null =>
  a === null || b === null ? null : pick(a, b);

/** Pure: the smallest range holding both (null: unbounded). */
function hull<T>(
  a: { min: T | null; max: T | null } | null,
  b: { min: T | null; max: T | null } | null,
): { min: T | null; max: T | null } | null {
  if (a === null || b === null) return null;
  const min = wider(a.min, b.min, (x, y) => (x < y ? x : y));
  const max = wider(a.max, b.max, (x, y) => (x > y ? x : y));
  return min === null && max === null ? null : { min, max };
}

/**
 * Pure: what `table`'s view must hold for every statement of `trees` that reads it (viewNeeds of each,
 * widened: the hull of their bounds and days, the union of their columns, guards when one may use them).
 * The order is the one the statements that sort by time agree on (the others do not vote: a statement
 * whose answer follows the order of the files, a LIMIT without ORDER BY, is no console page's).
 */
export function sharedViewNeeds(trees: readonly unknown[], table: HistoryTable): ViewNeeds {
  const each = trees.filter((t) => historyTablesIn(t).includes(table)).map((t) => viewNeeds(t, table));
  const [first, ...rest] = each;
  if (first === undefined) throw new RangeError(`no statement reads ${table}`);
  const orders = new Set(each.map((n) => n.order).filter((o) => o !== null));
  return {
    bounds: rest.reduce<TimestampBounds | null>((b, n) => hull(b, n.bounds), first.bounds),
    guards: each.some((n) => n.guards),
    columns: rest.reduce<ReadonlySet<string> | null>(
      (c, n) => wider(c, n.columns, (x, y) => new Set([...x, ...y])),
      first.columns,
    ),
    days: rest.reduce<DayBounds | null>((d, n) => hull(d, n.days), first.days),
    order: orders.size === 1 ? [...orders][0]! : null,
  };
}
