// What status and the metrics read of the archive's state, the same statements on SQLite and PostgreSQL:
// the ledger's rows, each Shield zone's latest guardian snapshot, and each zone's newest entry (one
// lookup at the end of its entry key (zone, timestamp, log_id), so one round trip whatever the number of
// zones). Zones (whole numbers) and sources (one of two) are written into the text as literals; each
// dialect runs the text through its own connection (sqlite/archive-reads.ts, postgres/archive-reads.ts).
import { ENTRY_TABLES } from './entry-tables.js';
import type { GuardianHealthRow, LedgerRow, LogSource, ZoneLists } from './store.js';

/** The key of a zone in the map newest entries are read into. */
export const zoneKey = (source: LogSource, zone: number): string => `${source}:${zone}`;

const ids = (zones: readonly number[]) => [...new Set(zones.map((z) => Math.trunc(z)))];

/**
 * Pure: the statement, rows of (source, zone, newest or NULL), or null when no zone is given.
 */
export function newestEntriesSql(zones: ZoneLists): string | null {
  const ctes: string[] = [];
  const selects: string[] = [];
  for (const source of ['origin', 'shield'] as const) {
    const list = ids(zones[source]);
    if (list.length === 0) continue;
    const t = ENTRY_TABLES[source];
    ctes.push(`${source}_zones(zone) AS (VALUES ${list.map((z) => `(${z})`).join(', ')})`);
    selects.push(
      `SELECT '${source}' AS source, z.zone, ` +
        `(SELECT max(e.timestamp) FROM ${t.table} AS e WHERE e.${t.zoneColumn} = z.zone) AS newest ` +
        `FROM ${source}_zones AS z`,
    );
  }
  return selects.length === 0 ? null : `WITH ${ctes.join(', ')}\n${selects.join('\nUNION ALL\n')}`;
}

/** Pure: the rows of newestEntriesSql, as the map by zoneKey (a zone without entries is absent). */
export function newestByZone(rows: ReadonlyArray<readonly unknown[]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [source, zone, newest] of rows) {
    if (newest === null || newest === undefined) continue;
    out.set(zoneKey(source as LogSource, Number(zone)), Number(newest));
  }
  return out;
}

const inZones = (col: string, zones: readonly number[] | null) =>
  zones ? `AND ${col} IN (${ids(zones).join(', ')})` : '';

/** Pure: the ledger rows of `sources` (of `zones` when given), by source, zone and newest day first. */
export function ledgerRowsSql(sources: readonly LogSource[], zones: readonly number[] | null): string | null {
  if (sources.length === 0) return null;
  for (const s of sources) if (!(s in ENTRY_TABLES)) throw new TypeError(`not a log source: ${s}`);
  const list = sources.map((s) => `'${s}'`);
  return `SELECT * FROM ingest_ledger WHERE source IN (${list.join(', ')}) ${inZones('zone_id', zones)}
           ORDER BY source, zone_id, log_date DESC`;
}

/** Pure: per Shield zone with snapshots (of `zones` when given), the newest snapshot's time and error. */
export function latestGuardianSql(zones: readonly number[] | null): string {
  return `SELECT shield_zone_id AS zone, max(taken_at) AS "lastSnapshot",
           (SELECT error FROM api_guardian_snapshots s2 WHERE s2.shield_zone_id = s.shield_zone_id
            ORDER BY taken_at DESC LIMIT 1) AS "lastError"
         FROM api_guardian_snapshots s WHERE 1 = 1 ${inZones('shield_zone_id', zones)} GROUP BY shield_zone_id`;
}

/** The statements' rows as objects (integers as numbers: all far below 2^53 here), or as arrays. */
export interface StatementRunner {
  objects(sql: string): Promise<Array<Record<string, unknown>>>;
  arrays(sql: string): Promise<unknown[][]>;
}

/** The reads status makes, over a dialect's runner. */
export function statusReads(run: StatementRunner) {
  return {
    async ledgerRows(sources: readonly LogSource[], zones: readonly number[] | null): Promise<LedgerRow[]> {
      const sql = ledgerRowsSql(sources, zones);
      return sql === null ? [] : ((await run.objects(sql)) as unknown as LedgerRow[]);
    },
    async latestGuardian(zones: readonly number[] | null): Promise<GuardianHealthRow[]> {
      return (await run.objects(latestGuardianSql(zones))) as unknown as GuardianHealthRow[];
    },
    async newestEntries(zones: ZoneLists): Promise<Map<string, number>> {
      const sql = newestEntriesSql(zones);
      return sql === null ? new Map() : newestByZone(await run.arrays(sql));
    },
  };
}
