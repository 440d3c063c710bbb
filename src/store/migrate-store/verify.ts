// Pure: the end of a migration, where the target must hold what was copied. Both sides are counted by
// group (a zone's day, a notice's key: TableSpec.groups), and only the source's groups are compared, so
// a target that holds data of its own (other zones, other days) passes, and says so. Each failure gets
// the advice that fits it: rows missing are copied by another run; hourly counts that do not match
// their entries are not (a run counts only the rows it inserts) and must be recounted.
import { thousands } from '../../format/table.js';
import { dayOf } from '../../time/utc-day.js';

/** Totals by group: the group's values as JSON (an array) → its count or sum. */
export type GroupTotals = ReadonlyMap<string, number>;

/** The key of a group in GroupTotals: its values, numbers as numbers. */
export function groupKey(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
}

/** A copied table: the target's rows in each of the source's groups hold at least the source's. */
export interface RowsCheck {
  kind: 'rows';
  table: string;
  /** What a group is, e.g. `(pull_zone_id, log_date)`. */
  groupedBy: string;
  /** Rows of the source. */
  source: number;
  /** Rows of the target in the source's groups. */
  target: number;
  /** Groups of the source. */
  groups: number;
  /** Rows of the source the target lacks, in `short` groups; a few of them, described. */
  missing: number;
  short: number;
  some: string[];
  /** Rows of the target beyond the source's in its groups (held before the copy), in `over` groups. */
  extra: number;
  over: number;
  /** Rows of the target outside the source's groups: its own, not compared. */
  outside: number;
}

/** A rollup: in each of the source's zone-days, the target's hourly counts add up to its entries. */
export interface RollupCheck {
  kind: 'rollup';
  table: string;
  entryTable: string;
  /** sum(count) of the source's rollup, and of the target's in the same zone-days. */
  source: number;
  target: number;
  /** The target's entries in those zone-days (by their timestamps' day). */
  entries: number;
  /** Zone-days where the target's counts differ from its entries; a few, described. */
  differing: number;
  some: string[];
}

export type Check = RowsCheck | RollupCheck;

const SOME = 3;

/** Pure: the rows check of `table` from both sides' totals by the same groups. */
export function rowsCheck(
  table: string,
  groupedBy: readonly string[],
  source: GroupTotals,
  target: GroupTotals,
): RowsCheck {
  const check: RowsCheck = {
    kind: 'rows',
    table,
    groupedBy: `(${groupedBy.join(', ')})`,
    source: 0,
    target: 0,
    groups: source.size,
    missing: 0,
    short: 0,
    some: [],
    extra: 0,
    over: 0,
    outside: 0,
  };
  for (const [key, n] of source) {
    const there = target.get(key) ?? 0;
    check.source += n;
    check.target += there;
    if (there < n) {
      check.missing += n - there;
      check.short++;
      if (check.some.length < SOME)
        check.some.push(`${describe(key)}: ${thousands(n - there)} of ${thousands(n)}`);
    } else if (there > n) {
      check.extra += there - n;
      check.over++;
    }
  }
  for (const [key, n] of target) if (!source.has(key)) check.outside += n;
  return check;
}

/**
 * Pure: the rollup check. Totals are by (zone, day start in ms): the source's and the target's rollup
 * sums, and the target's entries.
 */
export function rollupCheck(
  table: string,
  entryTable: string,
  source: GroupTotals,
  target: GroupTotals,
  entries: GroupTotals,
): RollupCheck {
  const check: RollupCheck = {
    kind: 'rollup',
    table,
    entryTable,
    source: 0,
    target: 0,
    entries: 0,
    differing: 0,
    some: [],
  };
  for (const [key, n] of source) {
    const counted = target.get(key) ?? 0;
    const held = entries.get(key) ?? 0;
    check.source += n;
    check.target += counted;
    check.entries += held;
    if (counted !== held) {
      check.differing++;
      if (check.some.length < SOME) {
        const [zone, dayStart] = JSON.parse(key) as [number, number];
        check.some.push(
          `zone ${zone} ${dayOf(dayStart)}: ${thousands(counted)} counted, ${thousands(held)} entries`,
        );
      }
    }
  }
  return check;
}

export function checkPassed(c: Check): boolean {
  return c.kind === 'rows' ? c.missing === 0 : c.differing === 0;
}

/** One line per failed check, with what it means and what to do; empty when every check passed. */
export function mismatches(checks: readonly Check[]): string[] {
  return checks.filter((c) => !checkPassed(c)).map(mismatch);
}

function mismatch(c: Check): string {
  if (c.kind === 'rows') {
    return (
      `${c.table}: ${thousands(c.missing)} rows of the source are not in the target, in ${thousands(c.short)} ` +
      `of its ${thousands(c.groups)} ${c.groupedBy} (${c.some.join('; ')}${c.short > c.some.length ? '; …' : ''}): ` +
      'run migrate-store again, which copies only what is missing; if they are still missing, something ' +
      'in the target refuses or removes them (a trigger, a rule, the retention of a worker using it)'
    );
  }
  return (
    `${c.table}: in ${thousands(c.differing)} of the source's zone-days the target's hourly counts do not ` +
    `add up to its ${c.entryTable} (${c.some.join('; ')}${c.differing > c.some.length ? '; …' : ''}): ` +
    'running migrate-store again does not change them (it counts only the rows it inserts); recount ' +
    'those days from the entries (docs/POSTGRES.md, "Recounting the hourly rollups")'
  );
}

/** What the checks found that is not a failure: the target's own rows, beside or among the copied ones. */
export function notes(checks: readonly Check[]): string[] {
  const out: string[] = [];
  for (const c of checks) {
    if (c.kind !== 'rows') continue;
    if (c.extra > 0) {
      out.push(
        `${c.table}: the target holds ${thousands(c.extra)} rows more than the source in ${thousands(c.over)} ` +
          `of the source's ${c.groupedBy} (its own, from before the copy): left as they are`,
      );
    }
    if (c.outside > 0) {
      out.push(
        `${c.table}: the target also holds ${thousands(c.outside)} rows outside the source's ${c.groupedBy} ` +
          '(its own data): left as they are, not compared',
      );
    }
  }
  return out;
}

/** A group's values for a message: `(101, 2026-11-21)`. */
function describe(key: string): string {
  return `(${(JSON.parse(key) as unknown[]).map(String).join(', ')})`;
}
