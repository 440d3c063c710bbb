// origin_error_logs and its hourly rollup.
import type { OriginRow } from '../ingest/parse-entries.js';
import { originBatch, type OriginBatch } from '../ingest/row-batch.js';
import type { Db } from './database.js';
import { RollupCounter, hourStart } from './hourly-rollup.js';

export interface StoreResult {
  /** Rows not yet archived (inserted now). */
  inserted: number;
  malformed: number;
  firstTs: number | null;
  lastTs: number | null;
}

/** Counts a row into a StoreResult's malformed count and time span. */
export function track(result: StoreResult, timestamp: number, parseError: string | null): void {
  if (parseError !== null) result.malformed++;
  if (result.firstTs === null || timestamp < result.firstTs) result.firstTs = timestamp;
  if (result.lastTs === null || timestamp > result.lastTs) result.lastTs = timestamp;
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
  store(zone: number, day: string, b: OriginBatch): StoreResult {
    const counter = new RollupCounter<[number, number, string]>();
    const result: StoreResult = { inserted: 0, malformed: 0, firstTs: null, lastTs: null };
    for (let i = 0; i < b.logId.length; i++) {
      const timestamp = b.timestamp[i]!;
      track(result, timestamp, b.parseError[i]!);
      const { changes } = this.insert.run(
        zone,
        b.logId[i],
        day,
        timestamp,
        b.requestUrl[i],
        b.message[i],
        b.errorCode[i],
        b.statusCode[i],
        b.serverZone[i],
        b.log[i],
        b.labels[i],
        b.parseError[i],
      );
      if (changes === 0) continue;
      result.inserted++;
      const hour = hourStart(timestamp);
      const status = b.statusCode[i] ?? 0;
      const code = b.errorCode[i] ?? '';
      counter.add(`${hour}|${status}|${code}`, [hour, status, code]);
    }
    for (const { parts, count } of counter.entries())
      this.rollup.run(zone, parts[0], parts[1], parts[2], count);
    return result;
  }

  /** store() for rows as objects (tests, tools). */
  storeRows(zone: number, day: string, rows: readonly OriginRow[]): StoreResult {
    return this.store(zone, day, originBatch(rows));
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
