// Compares an archive with what the simulator served (its oracle) and with itself: every keyable entry a
// row, every unkeyable one in quarantine, nothing else; the ledger's totals equal the rows; the hourly
// rollups count every row once; the store finds its files sound (integrity.ts). Returns the problems as
// text (an empty list when the archive is exact), so the soak script can print them and a test can assert
// on them. One implementation for both stores: plain SQL through an ArchiveReader (SQLite or PostgreSQL).
import type { SimEntry, SimSource } from '../../../src/simulator/index.js';
import type { Day } from '../../../src/time/utc-day.js';
import type { ArchiveReader } from '../../support/archive-reader.js';
import { integrityProblems } from './integrity.js';
import { notCreatedYet } from './progress.js';
import { sample } from './sample.js';

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
export async function checkDay(
  db: ArchiveReader,
  oracle: Oracle,
  ref: DayRef,
  opts: DayCheckOptions,
): Promise<DayCheck> {
  const { source, zone, day } = ref;
  const mode = opts.mode ?? 'exact';
  const { table, zone: zoneCol } = TABLES[source];
  const served = oracle.entries(source, zone, day, opts.at);
  const rows = await db.all<{ log_id: string; timestamp: number; log: string | null }>(
    `SELECT log_id, timestamp, log FROM ${table} WHERE ${zoneCol} = ? AND log_date = ?`,
    zone,
    day,
  );
  const quarantined = await db.all<{ raw: string; reason: string }>(
    'SELECT raw, reason FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ?',
    source,
    zone,
    day,
  );
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
  const [ledger] = await db.all<{ entries: number; quarantined: number }>(
    'SELECT entries, quarantined FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?',
    source,
    zone,
    day,
  );
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

/** `source zone day` → the ledger's state and lease owner, of every row; empty before the schema exists. */
async function ledgerStates(
  db: ArchiveReader,
): Promise<Map<string, { state: string; lease_owner: string | null }>> {
  const rows = await db
    .all<{ source: string; zone_id: number; log_date: string; state: string; lease_owner: string | null }>(
      'SELECT source, zone_id, log_date, state, lease_owner FROM ingest_ledger',
    )
    .catch((err: unknown) => {
      if (notCreatedYet(err)) return [];
      throw err;
    });
  return new Map(rows.map((r) => [`${r.source} ${r.zone_id} ${r.log_date}`, r]));
}

const nameOf = (d: DayRef) => `${d.source} ${d.zone} ${d.day}`;

/**
 * Cheap: every day of `days` is `complete` in the ledger and leased to no one. A poll waits for this before
 * comparing the archive with the oracle: that comparison builds every served entry, and run every few
 * hundred ms it starves the simulator, which answers from the test's own process.
 */
export async function ledgerSettled(db: ArchiveReader, days: readonly DayRef[]): Promise<boolean> {
  const states = await ledgerStates(db);
  return days.every((d) => {
    const row = states.get(nameOf(d));
    return row?.state === 'complete' && row.lease_owner === null;
  });
}

/**
 * What holds for any archive, whatever happened to it: every ledger row's totals equal the rows of its
 * zone-day, every zone's hourly rollup counts each of its rows once, and the store finds the archive sound
 * (integrity.ts).
 */
export async function invariantProblems(db: ArchiveReader): Promise<string[]> {
  const problems = await integrityProblems(db);
  for (const source of ['origin', 'shield'] as const) {
    const { table, zone, hourly } = TABLES[source];
    const ledger = await db.all<{ zone_id: number; log_date: string; archived: number; rows: number }>(
      `SELECT l.zone_id, l.log_date, l.archived_entries AS archived, coalesce(r.n, 0) AS rows
       FROM ingest_ledger l
       LEFT JOIN (SELECT ${zone} AS z, log_date AS d, count(*) AS n FROM ${table} GROUP BY ${zone}, log_date) r
         ON r.z = l.zone_id AND r.d = l.log_date
       WHERE l.source = ? AND l.archived_entries != coalesce(r.n, 0)
       ORDER BY 1, 2`,
      source,
    );
    for (const l of ledger) {
      problems.push(
        `${source} ${l.zone_id} ${l.log_date}: ledger archived_entries ${l.archived}, rows ${l.rows}`,
      );
    }
    const quarantine = await db.all<{ zone_id: number; log_date: string; counted: number; held: number }>(
      `SELECT l.zone_id, l.log_date, l.quarantined_entries AS counted, coalesce(q.n, 0) AS held
       FROM ingest_ledger l
       LEFT JOIN (SELECT zone_id AS z, log_date AS d, count(*) AS n FROM quarantined_entries
                  WHERE source = ? GROUP BY zone_id, log_date) q ON q.z = l.zone_id AND q.d = l.log_date
       WHERE l.source = ? AND l.quarantined_entries != coalesce(q.n, 0)
       ORDER BY 1, 2`,
      source,
      source,
    );
    for (const q of quarantine) {
      problems.push(
        `${source} ${q.zone_id} ${q.log_date}: ledger quarantined_entries ${q.counted}, quarantined rows ${q.held}`,
      );
    }
    const mismatched = await db.all<{ zone: number; rows: number; counted: number }>(
      `SELECT r.z AS zone, r.n AS rows, coalesce(h.n, 0) AS counted
       FROM (SELECT ${zone} AS z, count(*) AS n FROM ${table} GROUP BY ${zone}) r
       LEFT JOIN (SELECT ${zone} AS z, sum(count) AS n FROM ${hourly} GROUP BY ${zone}) h ON h.z = r.z
       WHERE r.n != coalesce(h.n, 0)
       ORDER BY 1`,
    );
    for (const m of mismatched) {
      problems.push(`${source} ${m.zone}: ${m.rows} rows, the hourly rollup counts ${m.counted}`);
    }
  }
  return problems;
}

/** Every day checked against the oracle, then the invariants. */
export async function archiveProblems(
  db: ArchiveReader,
  oracle: Oracle,
  days: readonly DayRef[],
  opts: DayCheckOptions,
): Promise<string[]> {
  const problems: string[] = [];
  for (const d of days) problems.push(...(await checkDay(db, oracle, d, opts)).problems);
  return [...problems, ...(await invariantProblems(db))];
}

/**
 * What an archive may hold after any failure: nothing that was not served, a day the ledger calls
 * `complete` whole, and the invariants. (A day that is not complete may lack entries: it says so.)
 */
export async function claimProblems(
  db: ArchiveReader,
  oracle: Oracle,
  days: readonly DayRef[],
  at: number,
): Promise<string[]> {
  const states = await ledgerStates(db);
  const problems: string[] = [];
  for (const d of days) {
    const mode = states.get(nameOf(d))?.state === 'complete' ? 'exact' : 'subset';
    problems.push(...(await checkDay(db, oracle, d, { at, mode })).problems);
  }
  return [...problems, ...(await invariantProblems(db))];
}
