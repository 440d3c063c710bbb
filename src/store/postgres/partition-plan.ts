// Pure: the day partitions of the partitioned tables — their names and bounds, which ones a page needs,
// which ones to create ahead, and which ones retention drops.
//
// Entry tables are partitioned by the UTC day of `timestamp` (part of their unique key, so the key stays
// exactly SQLite's); quarantined_entries by `log_date` (its entries may have no usable timestamp).
import { DAY_MS, dayOf, dayStartMs, type Day } from '../../time/utc-day.js';

export const ENTRY_PARENTS = ['origin_error_logs', 'shield_event_logs'] as const;
export const QUARANTINE_PARENT = 'quarantined_entries';
export type PartitionParent = (typeof ENTRY_PARENTS)[number] | typeof QUARANTINE_PARENT;

export interface Partition {
  parent: PartitionParent;
  /** `<parent>_<YYYYMMDD>` */
  name: string;
  day: Day;
  /** The FOR VALUES FROM … TO … bounds, as SQL literals. */
  from: string;
  to: string;
}

const LAST_DAY = '9999-12-31';

export function partitionOf(parent: PartitionParent, day: Day): Partition {
  const name = `${parent}_${day.replaceAll('-', '')}`;
  if (parent === QUARANTINE_PARENT) {
    // The day after the last four-digit year would be `+010000-01-01`, which sorts before it as text.
    const to = day === LAST_DAY ? 'MAXVALUE' : `'${dayOf(dayStartMs(day) + DAY_MS)}'`;
    return { parent, name, day, from: `'${day}'`, to };
  }
  const start = dayStartMs(day);
  return { parent, name, day, from: String(start), to: String(start + DAY_MS) };
}

const NAME = /^(origin_error_logs|shield_event_logs|quarantined_entries)_(\d{4})(\d{2})(\d{2})$/;

/** The partition a table name stands for, or null for a name this module did not make. */
export function parsePartition(name: string): Partition | null {
  const m = NAME.exec(name);
  if (!m) return null;
  return partitionOf(m[1] as PartitionParent, `${m[2]}-${m[3]}-${m[4]}` as Day);
}

const YEAR_10000 = Date.UTC(10000, 0, 1);

/**
 * The distinct UTC days of some timestamps (a page's rows), in order. Days from the year 10000 on have
 * no partition of their own (their rows share the `_far` one, see migrations/postgres/0001).
 */
export function daysOf(timestamps: readonly number[]): Day[] {
  const starts = new Set<number>();
  for (const t of timestamps) if (t < YEAR_10000) starts.add(t - (t % DAY_MS));
  return [...starts].sort((a, b) => a - b).map((ms) => dayOf(ms));
}

/**
 * The entry partitions of `entryDays` (the days of entries' timestamps) and the quarantine partitions of
 * `quarantineDays` (days fetched: a quarantined entry is filed under the day it came for, whatever its
 * timestamp says, if it has one).
 */
export function partitionsOfDays(
  entryDays: readonly Day[],
  quarantineDays: readonly Day[] = entryDays,
): Partition[] {
  return [
    ...entryDays.flatMap((day) => ENTRY_PARENTS.map((p) => partitionOf(p, day))),
    ...quarantineDays.map((day) => partitionOf(QUARANTINE_PARENT, day)),
  ];
}

/** Today and the `ahead` days after it, for the days around `now`; yesterday too (late entries). */
export function daysAround(now: number, ahead: number): Day[] {
  const today = dayStartMs(dayOf(now));
  const days: Day[] = [];
  for (let d = -1; d <= ahead; d++) days.push(dayOf(today + d * DAY_MS));
  return days;
}

export interface RetentionPlan {
  /** Partitions whose every row is before the cutoff. */
  drop: Partition[];
  /** Entry partitions the cutoff falls inside: their rows before it are deleted. */
  trim: Partition[];
}

/**
 * Retention at `beforeMs`: entries with a timestamp before it go (as SQLite deletes them), and so do the
 * quarantined entries of days that ended by then.
 */
export function retentionPlan(existing: readonly Partition[], beforeMs: number): RetentionPlan {
  const drop: Partition[] = [];
  const trim: Partition[] = [];
  for (const p of existing) {
    const start = dayStartMs(p.day);
    if (start + DAY_MS <= beforeMs) drop.push(p);
    // Entries are expired by the day they were fetched for (log_date): the day after the cutoff may hold
    // some fetched for the day before (their timestamps a little past midnight).
    else if (p.parent !== QUARANTINE_PARENT && start < beforeMs + DAY_MS) trim.push(p);
  }
  return { drop, trim };
}
