// The newest archived entry's timestamp of every configured zone, read in one statement per scrape
// (SQLite and PostgreSQL alike): each zone's is one lookup at the end of its entry key (zone,
// timestamp, log_id), so a scrape costs one round trip whatever the number of zones.
import type { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { SOURCE_TABLES } from '../store/rows.js';
import type { ArchiveStore, LogSource } from '../store/store.js';

export interface ZoneLists {
  origin: readonly number[];
  shield: readonly number[];
}

/** The key of a zone in the map `NewestEntries` reads. */
export const zoneKey = (source: LogSource, zone: number): string => `${source}:${zone}`;

/** Reads the newest entry's timestamp (ms) by zoneKey; a zone without entries is absent. */
export type NewestEntries = () => Promise<ReadonlyMap<string, number>>;

/**
 * Pure: the statement, rows of (source, zone, newest or NULL), or null when no zone is configured. The
 * zones are whole numbers from the configuration, written into the text; the same SQL runs on both stores.
 */
export function newestEntriesSql(zones: ZoneLists): string | null {
  const ctes: string[] = [];
  const selects: string[] = [];
  for (const source of ['origin', 'shield'] as const) {
    const ids = [...new Set(zones[source].map((z) => Math.trunc(z)))];
    if (ids.length === 0) continue;
    const t = SOURCE_TABLES[source];
    ctes.push(`${source}_zones(zone) AS (VALUES ${ids.map((z) => `(${z})`).join(', ')})`);
    selects.push(
      `SELECT '${source}' AS source, z.zone, ` +
        `(SELECT max(e.timestamp) FROM ${t.raw} AS e WHERE e.${t.zone} = z.zone) AS newest ` +
        `FROM ${source}_zones AS z`,
    );
  }
  return selects.length === 0 ? null : `WITH ${ctes.join(', ')}\n${selects.join('\nUNION ALL\n')}`;
}

/** Pure: the rows read, as the map by zoneKey. */
export function newestByZone(rows: ReadonlyArray<readonly unknown[]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [source, zone, newest] of rows) {
    if (newest === null || newest === undefined) continue;
    out.set(zoneKey(source as LogSource, Number(zone)), Number(newest));
  }
  return out;
}

/** On SQLite a prepared statement; on PostgreSQL a read-only query (bounded by a statement timeout). */
export function newestEntries(store: ArchiveStore, zones: ZoneLists): NewestEntries {
  const sql = newestEntriesSql(zones);
  if (sql === null) return () => Promise.resolve(new Map());
  if (store.dialect === 'sqlite') {
    const stmt = (store as SqliteStore).archive.db.prepare(sql).raw(true);
    return () => Promise.resolve(newestByZone(stmt.all() as unknown[][]));
  }
  return () =>
    store.queries.readOnly(sql, { timeoutMs: 5_000 }, async (cursor) => {
      const rows: unknown[][] = [];
      for (let batch = await cursor.next(1000); batch.length > 0; batch = await cursor.next(1000))
        rows.push(...batch);
      return newestByZone(rows);
    });
}
