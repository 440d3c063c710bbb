// The ledger's batches of a migration: each of the source's days merged with the target's row of it by
// the ledger rules (mergeDay in ledger-rules.ts), its totals counted from what the target holds of the
// day, in one transaction. The ledger is copied last, so those counts include every row copied.
import type pg from 'pg';
import { mergeDay, type DayHeld } from '../ledger-rules.js';
import type { LedgerRow } from '../ledger-types.js';
import { ORIGIN_TABLE, SHIELD_TABLE } from '../entry-tables.js';
import type { CopyColumns, TableSpec } from './tables.js';

/** A batch of source rows and the index of each column by name (postgres-target's RowsView). */
interface Batch {
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>;
  index: ReadonlyMap<string, number>;
}

const KEY = ['source', 'zone_id', 'log_date'] as const;

/** The batch's days as $1 source, $2 zone, $3 day: a table `days` for the statements below. */
const DAYS = `days(source, zone_id, log_date) AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]))`;

const LOCK_DAYS = `WITH ${DAYS}
  SELECT l.* FROM ingest_ledger AS l JOIN days USING (source, zone_id, log_date)
  ORDER BY source, zone_id, log_date FOR UPDATE OF l`;

// One grouped scan per table, whatever the number of days in the batch.
const HELD = `WITH ${DAYS}
  ${[ORIGIN_TABLE, SHIELD_TABLE]
    .map(
      (t) => `SELECT '${t.source}' AS source, ${t.zoneColumn} AS zone_id, log_date, count(*)::bigint AS n,
        'archived' AS what FROM ${t.table}
      WHERE (${t.zoneColumn}, log_date) IN (SELECT zone_id, log_date FROM days WHERE source = '${t.source}')
      GROUP BY ${t.zoneColumn}, log_date`,
    )
    .join('\n  UNION ALL\n  ')}
  UNION ALL
  SELECT source, zone_id, log_date, count(*)::bigint, 'quarantined' FROM quarantined_entries
  WHERE (source, zone_id, log_date) IN (SELECT * FROM days) GROUP BY source, zone_id, log_date`;

const dayKey = (r: { source: unknown; zone_id: unknown; log_date: unknown }) =>
  `${String(r.source)} ${Number(r.zone_id)} ${String(r.log_date)}`;

/** Merges one batch of the source's ledger into the target; call inside a transaction. */
export async function mergeLedgerBatch(
  c: pg.PoolClient,
  spec: TableSpec,
  cols: CopyColumns,
  batch: Batch,
): Promise<{ inserted: number; updated: number }> {
  const source = batch.rows.map((values) => {
    const row = Object.fromEntries(cols.names.map((name, i) => [name, values[i] ?? null]));
    for (const name of spec.cleared ?? []) row[name] = null;
    return row as unknown as LedgerRow;
  });
  const days = KEY.map((k) => source.map((r) => r[k]));
  const { rows: there } = await c.query<LedgerRow>(LOCK_DAYS, days);
  const targetOf = new Map(there.map((r) => [dayKey(r), r]));
  const { rows: counted } = await c.query<{
    source: string;
    zone_id: number;
    log_date: string;
    n: number;
    what: 'archived' | 'quarantined';
  }>(HELD, days);
  const held = new Map<string, DayHeld>();
  for (const r of counted) {
    const h = held.get(dayKey(r)) ?? { archived: 0, quarantined: 0 };
    h[r.what] = r.n;
    held.set(dayKey(r), h);
  }
  let inserted = 0;
  let updated = 0;
  const changed: LedgerRow[] = [];
  for (const row of source) {
    const target = targetOf.get(dayKey(row));
    const merged = mergeDay(target, row, held.get(dayKey(row)) ?? { archived: 0, quarantined: 0 });
    if (target === undefined) inserted++;
    else if (cols.names.some((n) => field(merged, n) !== field(target, n))) updated++;
    else continue;
    changed.push(merged);
  }
  if (changed.length > 0)
    await c.query(
      upsertSql(cols),
      cols.names.map((n) => changed.map((r) => field(r, n))),
    );
  return { inserted, updated };
}

const field = (row: LedgerRow, name: string): unknown =>
  (row as unknown as Record<string, unknown>)[name] ?? null;

/** Writes whole rows (one array per column, $1…), replacing the target's of the same days. */
function upsertSql(cols: CopyColumns): string {
  const arrays = cols.types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  const set = cols.names
    .filter((n) => !(KEY as readonly string[]).includes(n))
    .map((n) => `${n} = excluded.${n}`)
    .join(', ');
  return `INSERT INTO ingest_ledger (${cols.names.join(', ')}) SELECT * FROM unnest(${arrays})
    ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${set}`;
}
