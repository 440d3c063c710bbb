// Compares an archive with what the simulator served (its oracle) and with itself: every keyable entry a
// row, every unkeyable one in quarantine, nothing else; the ledger's totals equal the rows; the hourly
// rollups count every row once; SQLite finds the file sound. Returns the problems as text (an empty list
// when the archive is exact), so the soak script can print them and a test can assert on them.
import type { SimEntry, SimSource } from '../../../src/simulator/index.js';
import type { Db } from '../../../src/store/sqlite/database.js';
import type { Day } from '../../../src/time/utc-day.js';

export interface DayRef {
  source: SimSource;
  zone: number;
  day: Day;
}

/** What the simulator served: `Simulator` is one. */
export interface Oracle {
  entries(source: SimSource, zone: number, day: Day, at?: number): SimEntry[];
}

export interface DayCheckOptions {
  /** The oracle's instant: a past day is whole at any later instant; today grows. */
  at: number;
  /**
   * `exact`: the archive holds exactly what was served. `subset`: it holds nothing that was not (a day
   * still filling in, or one whose last pass stopped early). @defaultValue 'exact'
   */
  mode?: 'exact' | 'subset';
  /** Also check the last pass's own counts (`entries`, `quarantined`): only when it fetched the whole day. */
  wholePass?: boolean;
}

export interface DayCheck {
  problems: string[];
  served: number;
  rows: number;
  quarantined: number;
}

export const TABLES = {
  origin: { table: 'origin_error_logs', zone: 'pull_zone_id', hourly: 'origin_hourly' },
  shield: { table: 'shield_event_logs', zone: 'shield_zone_id', hourly: 'shield_hourly' },
} as const;

export const QUARANTINE_REASON = /logId|timestamp|not an object/;

/** Multiset difference a − b, as values. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  const out: string[] = [];
  for (const x of a) {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    else out.push(x);
  }
  return out;
}

export function sample(values: readonly string[]): string {
  const shown = values.slice(0, 3).map((v) => (v.length > 120 ? `${v.slice(0, 120)}…` : v));
  return `${shown.join('; ')}${values.length > 3 ? `; … ${values.length - 3} more` : ''}`;
}

/** Problems of one list against what it should hold. */
export function compare(what: string, got: string[], want: string[], mode: 'exact' | 'subset'): string[] {
  const extra = minus(got, want);
  const missing = mode === 'exact' ? minus(want, got) : [];
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`${missing.length} ${what} missing: ${sample(missing)}`);
  if (extra.length > 0) problems.push(`${extra.length} ${what} not served (or twice): ${sample(extra)}`);
  return problems;
}

export const canonical = (raw: string) => JSON.stringify(JSON.parse(raw));

/** Checks one zone-day against the oracle, and its ledger row against the tables. */
export function checkDay(db: Db, oracle: Oracle, ref: DayRef, opts: DayCheckOptions): DayCheck {
  const { source, zone, day } = ref;
  const mode = opts.mode ?? 'exact';
  const { table, zone: zoneCol } = TABLES[source];
  const served = oracle.entries(source, zone, day, opts.at);
  const rows = db
    .prepare(`SELECT log_id, timestamp, log FROM ${table} WHERE ${zoneCol} = ? AND log_date = ?`)
    .all(zone, day) as Array<{ log_id: string; timestamp: number; log: string | null }>;
  const quarantined = db
    .prepare('SELECT raw, reason FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ?')
    .all(source, zone, day) as Array<{ raw: string; reason: string }>;
  const keyOf = (ts: unknown, id: unknown, log: unknown) => JSON.stringify([ts, id, log ?? null]);
  const problems = [
    ...compare(
      'rows',
      rows.map((r) => keyOf(r.timestamp, r.log_id, r.log)),
      served.filter((e) => e.keyable).map((e) => keyOf(e.timestamp, e.logId, e.log)),
      mode,
    ),
    ...compare(
      'quarantined entries',
      quarantined.map((q) => canonical(q.raw)),
      served.filter((e) => !e.keyable).map((e) => canonical(e.raw)),
      mode,
    ),
  ];
  const badReasons = quarantined.filter((q) => !QUARANTINE_REASON.test(q.reason));
  if (badReasons.length > 0) {
    problems.push(`quarantine reasons that name no cause: ${sample(badReasons.map((q) => q.reason))}`);
  }
  const ledger = db
    .prepare('SELECT * FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?')
    .get(source, zone, day) as
    | {
        state: string;
        entries: number;
        quarantined: number;
        archived_entries: number;
        quarantined_entries: number;
      }
    | undefined;
  if (!ledger) {
    if (rows.length + quarantined.length > 0 || mode === 'exact') problems.push('no ledger row');
  } else if (opts.wholePass) {
    const keyable = served.filter((e) => e.keyable).length;
    if (ledger.entries !== served.length)
      problems.push(`ledger entries ${ledger.entries}, served ${served.length}`);
    if (ledger.quarantined !== served.length - keyable) {
      problems.push(`ledger quarantined ${ledger.quarantined}, served ${served.length - keyable} unkeyable`);
    }
  }
  return {
    problems: problems.map((p) => `${source} ${zone} ${day}: ${p}`),
    served: served.length,
    rows: rows.length,
    quarantined: quarantined.length,
  };
}

/**
 * What holds for any archive, whatever happened to it: every ledger row's totals equal the rows of its
 * zone-day, every zone's hourly rollup counts each of its rows once, and `PRAGMA integrity_check` is ok.
 */
/**
 * Cheap: every day of `days` is `complete` in the ledger and leased to no one. A poll waits for this before
 * comparing the archive with the oracle: that comparison builds every served entry, and run every few
 * hundred ms it starves the simulator, which answers from the test's own process.
 */
export function ledgerSettled(db: Db, days: readonly DayRef[]): boolean {
  const stmt = db.prepare(
    'SELECT state, lease_owner FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?',
  );
  return days.every((d) => {
    const row = stmt.get(d.source, d.zone, d.day) as
      { state: string; lease_owner: string | null } | undefined;
    return row?.state === 'complete' && row.lease_owner === null;
  });
}

export function invariantProblems(db: Db): string[] {
  const problems: string[] = [];
  const integrity = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
  if (integrity.join() !== 'ok') problems.push(`integrity_check: ${sample(integrity)}`);
  const ledger = db
    .prepare('SELECT source, zone_id, log_date, archived_entries, quarantined_entries FROM ingest_ledger')
    .all() as Array<{
    source: SimSource;
    zone_id: number;
    log_date: string;
    archived_entries: number;
    quarantined_entries: number;
  }>;
  for (const l of ledger) {
    const { table, zone } = TABLES[l.source];
    const rows = db
      .prepare(`SELECT count(*) FROM ${table} WHERE ${zone} = ? AND log_date = ?`)
      .pluck()
      .get(l.zone_id, l.log_date) as number;
    const quarantined = db
      .prepare('SELECT count(*) FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ?')
      .pluck()
      .get(l.source, l.zone_id, l.log_date) as number;
    const at = `${l.source} ${l.zone_id} ${l.log_date}`;
    if (l.archived_entries !== rows)
      problems.push(`${at}: ledger archived_entries ${l.archived_entries}, rows ${rows}`);
    if (l.quarantined_entries !== quarantined) {
      problems.push(
        `${at}: ledger quarantined_entries ${l.quarantined_entries}, quarantined rows ${quarantined}`,
      );
    }
  }
  for (const source of ['origin', 'shield'] as const) {
    const { table, zone, hourly } = TABLES[source];
    const mismatched = db
      .prepare(
        `SELECT r.z AS zone, r.n AS rows, coalesce(h.n, 0) AS counted
         FROM (SELECT ${zone} AS z, count(*) AS n FROM ${table} GROUP BY ${zone}) r
         LEFT JOIN (SELECT ${zone} AS z, sum(count) AS n FROM ${hourly} GROUP BY ${zone}) h ON h.z = r.z
         WHERE r.n != coalesce(h.n, 0)`,
      )
      .all() as Array<{ zone: number; rows: number; counted: number }>;
    for (const m of mismatched) {
      problems.push(`${source} ${m.zone}: ${m.rows} rows, the hourly rollup counts ${m.counted}`);
    }
  }
  return problems;
}

/** Every day checked against the oracle, then the invariants. */
export function archiveProblems(
  db: Db,
  oracle: Oracle,
  days: readonly DayRef[],
  opts: DayCheckOptions,
): string[] {
  return [...days.flatMap((d) => checkDay(db, oracle, d, opts).problems), ...invariantProblems(db)];
}

/**
 * What an archive may hold after any failure: nothing that was not served, a day the ledger calls
 * `complete` whole, and the invariants. (A day that is not complete may lack entries: it says so.)
 */
export function claimProblems(db: Db, oracle: Oracle, days: readonly DayRef[], at: number): string[] {
  const stateOf = db.prepare(
    'SELECT state FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?',
  );
  return [
    ...days.flatMap((d) => {
      const state = stateOf.pluck().get(d.source, d.zone, d.day) as string | undefined;
      return checkDay(db, oracle, d, { at, mode: state === 'complete' ? 'exact' : 'subset' }).problems;
    }),
    ...invariantProblems(db),
  ];
}
