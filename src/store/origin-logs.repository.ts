// origin_error_logs and its hourly rollup.
import type { OriginRow } from '../ingest/parse-entries.js';
import type { Db } from './database.js';
import { RollupCounter, hourStart } from './hourly-rollup.js';

export interface StoreResult {
  /** Rows not yet archived (inserted now). */
  inserted: number;
  malformed: number;
  firstTs: number | null;
  lastTs: number | null;
}

export class OriginLogsRepository {
  private readonly insert;
  private readonly rollup;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO origin_error_logs
      (pull_zone_id, log_id, log_date, timestamp, request_url, message, error_code, status_code, server_zone, log, labels, parse_error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (pull_zone_id, timestamp, log_id) DO NOTHING`);
    this.rollup = db.prepare(`INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (pull_zone_id, hour, status_code, error_code) DO UPDATE SET count = count + excluded.count`);
  }

  /** Stores rows idempotently and counts the new ones into origin_hourly. Call inside a transaction. */
  store(zone: number, day: string, rows: readonly OriginRow[]): StoreResult {
    const counter = new RollupCounter<[number, number, string]>();
    let inserted = 0;
    let malformed = 0;
    let firstTs: number | null = null;
    let lastTs: number | null = null;
    for (const r of rows) {
      if (r.parseError !== null) malformed++;
      if (firstTs === null || r.timestamp < firstTs) firstTs = r.timestamp;
      if (lastTs === null || r.timestamp > lastTs) lastTs = r.timestamp;
      const { changes } = this.insert.run(
        zone,
        r.logId,
        day,
        r.timestamp,
        r.requestUrl,
        r.message,
        r.errorCode,
        r.statusCode,
        r.serverZone,
        r.log,
        r.labels,
        r.parseError,
      );
      if (changes === 0) continue;
      inserted++;
      const hour = hourStart(r.timestamp);
      const status = r.statusCode ?? 0;
      const code = r.errorCode ?? '';
      counter.add(`${hour}|${status}|${code}`, [hour, status, code]);
    }
    for (const { parts, count } of counter.entries())
      this.rollup.run(zone, parts[0], parts[1], parts[2], count);
    return { inserted, malformed, firstTs, lastTs };
  }

  /** Deletes entries (and their rollup hours) older than `beforeMs`, in batches; returns rows deleted. */
  prune(beforeMs: number, batch = 10_000): number {
    return pruneTable(this.db, 'origin_error_logs', 'pull_zone_id', 'origin_hourly', beforeMs, batch);
  }
}

/** Shared by both log tables: deletes old rows zone by zone along the (zone, timestamp) key. */
export function pruneTable(
  db: Db,
  table: string,
  zoneColumn: string,
  rollup: string,
  beforeMs: number,
  batch: number,
): number {
  // The rollup knows every zone with entries and is far smaller than the entry table.
  const zones = db.prepare(`SELECT DISTINCT ${zoneColumn} AS zone FROM ${rollup}`).pluck().all() as number[];
  const del = db.prepare(
    `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${zoneColumn} = ? AND timestamp < ? LIMIT ?)`,
  );
  const delRollup = db.prepare(`DELETE FROM ${rollup} WHERE ${zoneColumn} = ? AND hour < ?`);
  let total = 0;
  for (const zone of zones) {
    // Short transactions: the worker keeps writing while retention runs.
    for (;;) {
      const n = db.transaction(() => del.run(zone, beforeMs, batch).changes).immediate();
      total += n;
      if (n < batch) break;
    }
    db.transaction(() => delRollup.run(zone, beforeMs - (beforeMs % 3_600_000))).immediate();
  }
  return total;
}
