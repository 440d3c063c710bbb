// Pure: the SQL that reads a table's rows from the store (SQLite or PostgreSQL: the same text runs on
// both) for every zone-day the history does not hold, and the predicate that picks zone-days. Zone ids
// and days are checked again here and written as literals: the store's read-only query path takes one
// statement without parameters, and a checked integer or YYYY-MM-DD cannot carry anything else.
import { isDayText } from '../time/utc-day.js';
import { HISTORY_COLUMNS } from '../store/history-columns.js';
import type { HistoryTable } from './layout.js';
import type { PublishedDay, ZoneDayScope } from './published-days.js';
import type { DayBounds, TimestampBounds } from './statement-bounds.js';
import type { StoreDialect } from '../store/store.js';

export class ZoneDayError extends Error {
  override name = 'ZoneDayError';
}

function zoneLiteral(zone: number): string {
  if (!Number.isSafeInteger(zone) || zone < 0) throw new ZoneDayError(`not a zone id: ${zone}`);
  return String(zone);
}

function dayLiteral(day: string): string {
  if (!isDayText(day)) throw new ZoneDayError(`not a YYYY-MM-DD day: ${JSON.stringify(day)}`);
  return `'${day}'`;
}

/**
 * `(zone = 101 AND log_date IN ('2026-11-20', …)) OR …` over `days` (a quarantine day also by its
 * source), or null when there are none.
 */
export function zoneDayPredicate(table: HistoryTable, days: readonly PublishedDay[]): string | null {
  const { zoneColumn, sourceColumn } = HISTORY_COLUMNS[table];
  const groups = new Map<string, { head: string; days: string[] }>();
  for (const d of days) {
    let head = `${zoneColumn} = ${zoneLiteral(d.zone)}`;
    if (sourceColumn !== undefined) {
      if (d.source !== 'origin' && d.source !== 'shield')
        throw new ZoneDayError(`a quarantine day needs its source: ${d.zone}/${d.day}`);
      head = `${sourceColumn} = '${d.source}' AND ${head}`;
    }
    const group = groups.get(head) ?? { head, days: [] };
    group.days.push(dayLiteral(d.day));
    groups.set(head, group);
  }
  if (groups.size === 0) return null;
  return [...groups.values()].map((g) => `(${g.head} AND log_date IN (${g.days.join(', ')}))`).join(' OR ');
}

/** The scope as SQL conditions on `table`'s columns (none for an empty scope). */
function scopeConditions(table: HistoryTable, scope: ZoneDayScope): string[] {
  const { zoneColumn } = HISTORY_COLUMNS[table];
  const out: string[] = [];
  if (scope.from !== undefined) out.push(`log_date >= ${dayLiteral(scope.from)}`);
  if (scope.to !== undefined) out.push(`log_date <= ${dayLiteral(scope.to)}`);
  if (scope.zones !== undefined)
    out.push(
      scope.zones.length === 0 ? 'FALSE' : `${zoneColumn} IN (${scope.zones.map(zoneLiteral).join(', ')})`,
    );
  return out;
}

/** Pure: `bounds` as conditions on the table's `timestamp` (none for a table without one). */
function boundConditions(table: HistoryTable, bounds: TimestampBounds | null): string[] {
  const column = HISTORY_COLUMNS[table].timeFrom;
  if (column === undefined || bounds === null) return [];
  // bigints: their text is digits and a sign, nothing else.
  return [
    ...(bounds.min === null ? [] : [`${column} >= ${BigInt(bounds.min).toString()}`]),
    ...(bounds.max === null ? [] : [`${column} <= ${BigInt(bounds.max).toString()}`]),
  ];
}

/**
 * The store's rows of `table` in `scope` that the history's parts do not hold, with the history's
 * columns: those of a write batch at or above the flush watermark `below` (parts.ts); before the first
 * flush (`below` 0), every row outside the zone-days of `inHistory` (legacy files). Only those within
 * `bounds` (the statement sees no other: statement-bounds.ts). `dialect`: the store's, which reads it.
 * `copy`: only these columns (statement-columns.ts), in the table's order; null: every one; none: one
 * row holding how many rows there are. `days`: the days of `log_date` the statement can see (dayBounds).
 */
export function storeRowsSql(
  table: HistoryTable,
  inHistory: readonly PublishedDay[],
  scope: ZoneDayScope = {},
  bounds: TimestampBounds | null = null,
  below = 0n,
  dialect: StoreDialect = 'postgres',
  copy: ReadonlySet<string> | null = null,
  days: DayBounds | null = null,
): string {
  const names = HISTORY_COLUMNS[table].columns.map(([name]) => name);
  const picked = copy === null ? names : names.filter((name) => copy.has(name));
  const columns = picked.length === 0 ? 'count(*)' : picked.join(', ');
  const held = zoneDayPredicate(table, inHistory);
  const where = [
    // A bigint's text is digits, nothing else.
    ...(below > 0n ? [`batch >= ${BigInt(below).toString()}`] : []),
    ...scopeConditions(table, scope),
    ...boundConditions(table, bounds),
    ...(days?.min == null ? [] : [`log_date >= ${dayLiteral(days.min)}`]),
    ...(days?.max == null ? [] : [`log_date <= ${dayLiteral(days.max)}`]),
    ...(held === null ? [] : [`NOT (${held})`]),
  ];
  // SQLite (no statistics) takes the key index for a zone or a time range, and would read every row of
  // the zone to find the few above the watermark; the batch index reads those rows only, which the flush
  // keeps to tens of thousands. PostgreSQL's planner has statistics to choose by.
  const from = below > 0n && dialect === 'sqlite' ? `${table} INDEXED BY ${table}_batch` : table;
  return `SELECT ${columns} FROM ${from}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}`;
}
