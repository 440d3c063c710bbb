// The fault suite's archive check (test/fault/lib/archive-check.ts) on a PostgreSQL archive: every keyable
// entry served a row, every unkeyable one in quarantine with a reason, nothing else; every ledger row's
// totals equal its zone-day's rows; each zone's hourly rollups count every row once. Problems as text.
import type pg from 'pg';
import {
  canonical,
  compare,
  QUARANTINE_REASON,
  sample,
  TABLES,
  type DayRef,
  type Oracle,
} from '../../fault/lib/archive-check.js';

/** Cheap: every day of `days` is `complete` and leased to no one (poll this, then compare). */
export async function pgLedgerSettled(c: pg.ClientBase, days: readonly DayRef[]): Promise<boolean> {
  const { rows } = await c
    .query<{ source: string; zone_id: number; log_date: string; state: string; lease_owner: string | null }>(
      'SELECT source, zone_id, log_date, state, lease_owner FROM ingest_ledger',
    )
    .catch(() => ({ rows: [] })); // not migrated yet
  const settled = new Set(
    rows
      .filter((r) => r.state === 'complete' && r.lease_owner === null)
      .map((r) => `${r.source} ${r.zone_id} ${r.log_date}`),
  );
  return days.every((d) => settled.has(`${d.source} ${d.zone} ${d.day}`));
}

/** One zone-day against the oracle (exact). */
export async function pgDayProblems(
  c: pg.ClientBase,
  oracle: Oracle,
  ref: DayRef,
  at: number,
): Promise<string[]> {
  const { source, zone, day } = ref;
  const t = TABLES[source];
  const served = oracle.entries(source, zone, day, at);
  const rows = await c.query<{ log_id: string; timestamp: string; log: string | null }>(
    `SELECT log_id, timestamp, log FROM ${t.table} WHERE ${t.zone} = $1 AND log_date = $2`,
    [zone, day],
  );
  const quarantined = await c.query<{ raw: string; reason: string }>(
    'SELECT raw, reason FROM quarantined_entries WHERE source = $1 AND zone_id = $2 AND log_date = $3',
    [source, zone, day],
  );
  const keyOf = (ts: unknown, id: unknown, log: unknown) => JSON.stringify([Number(ts), id, log ?? null]);
  const problems = [
    ...compare(
      'rows',
      rows.rows.map((r) => keyOf(r.timestamp, r.log_id, r.log)),
      served.filter((e) => e.keyable).map((e) => keyOf(e.timestamp, e.logId, e.log)),
      'exact',
    ),
    ...compare(
      'quarantined entries',
      quarantined.rows.map((q) => canonical(q.raw)),
      served.filter((e) => !e.keyable).map((e) => canonical(e.raw)),
      'exact',
    ),
  ];
  const badReasons = quarantined.rows.filter((q) => !QUARANTINE_REASON.test(q.reason));
  if (badReasons.length > 0)
    problems.push(`quarantine reasons that name no cause: ${sample(badReasons.map((q) => q.reason))}`);
  const ledger = await c.query(
    'SELECT 1 FROM ingest_ledger WHERE source = $1 AND zone_id = $2 AND log_date = $3',
    [source, zone, day],
  );
  if (ledger.rows.length === 0) problems.push('no ledger row');
  return problems.map((p) => `${source} ${zone} ${day}: ${p}`);
}

/** What holds for any archive: ledger totals equal the rows, rollups count each row once. */
export async function pgInvariantProblems(c: pg.ClientBase): Promise<string[]> {
  const problems: string[] = [];
  for (const source of ['origin', 'shield'] as const) {
    const { table, zone, hourly } = TABLES[source];
    const ledger = await c.query<{ zone_id: number; log_date: string; archived: string; rows: string }>(
      `SELECT l.zone_id, l.log_date, l.archived_entries AS archived, coalesce(r.n, 0) AS rows
       FROM ingest_ledger l
       LEFT JOIN (SELECT ${zone} AS z, log_date AS d, count(*) AS n FROM ${table} GROUP BY 1, 2) r
         ON r.z = l.zone_id AND r.d = l.log_date
       WHERE l.source = $1 AND l.archived_entries != coalesce(r.n, 0)`,
      [source],
    );
    for (const l of ledger.rows)
      problems.push(
        `${source} ${l.zone_id} ${l.log_date}: ledger archived_entries ${l.archived}, rows ${l.rows}`,
      );
    const quarantine = await c.query<{ zone_id: number; log_date: string; counted: string; held: string }>(
      `SELECT l.zone_id, l.log_date, l.quarantined_entries AS counted, coalesce(q.n, 0) AS held
       FROM ingest_ledger l
       LEFT JOIN (SELECT zone_id AS z, log_date AS d, count(*) AS n FROM quarantined_entries
                  WHERE source = $1 GROUP BY 1, 2) q ON q.z = l.zone_id AND q.d = l.log_date
       WHERE l.source = $1 AND l.quarantined_entries != coalesce(q.n, 0)`,
      [source],
    );
    for (const q of quarantine.rows) {
      problems.push(
        `${source} ${q.zone_id} ${q.log_date}: ledger quarantined_entries ${q.counted}, quarantined rows ${q.held}`,
      );
    }
    const mismatched = await c.query<{ zone: number; rows: string; counted: string }>(
      `SELECT r.z AS zone, r.n AS rows, coalesce(h.n, 0) AS counted
       FROM (SELECT ${zone} AS z, count(*) AS n FROM ${table} GROUP BY ${zone}) r
       LEFT JOIN (SELECT ${zone} AS z, sum(count) AS n FROM ${hourly} GROUP BY ${zone}) h ON h.z = r.z
       WHERE r.n != coalesce(h.n, 0)`,
    );
    for (const m of mismatched.rows)
      problems.push(`${source} ${m.zone}: ${m.rows} rows, the hourly rollup counts ${m.counted}`);
  }
  return problems;
}

/** Every day checked against the oracle, then the invariants. */
export async function pgArchiveProblems(
  c: pg.ClientBase,
  oracle: Oracle,
  days: readonly DayRef[],
  at: number,
): Promise<string[]> {
  const out: string[] = [];
  for (const d of days) out.push(...(await pgDayProblems(c, oracle, d, at)));
  return [...out, ...(await pgInvariantProblems(c))];
}
