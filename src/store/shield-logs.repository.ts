// shield_event_logs and its hourly rollup.
import type { ShieldRow } from '../ingest/parse-entries.js';
import { shieldBatch, type ShieldBatch } from '../ingest/row-batch.js';
import type { Db } from './database.js';
import { RollupCounter, hourStart } from './hourly-rollup.js';
import { pruneTable, track, type StoreResult } from './origin-logs.repository.js';

export class ShieldLogsRepository {
  private readonly insert;
  private readonly rollup;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO shield_event_logs
      (shield_zone_id, log_id, log_date, timestamp, asn, country, rule_id, severity, method, rule_group, status,
       server_zone, url, remote_ip, message, log, parse_error, extra_labels)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (shield_zone_id, timestamp, log_id) DO NOTHING`);
    this.rollup =
      db.prepare(`INSERT INTO shield_hourly (shield_zone_id, hour, rule_id, severity, status, count)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (shield_zone_id, hour, rule_id, severity, status) DO UPDATE SET count = count + excluded.count`);
  }

  /** Stores rows idempotently and counts the new ones into shield_hourly. Call inside a transaction. */
  store(zone: number, day: string, b: ShieldBatch): StoreResult {
    const counter = new RollupCounter<[number, string, string, string]>();
    const result: StoreResult = { inserted: 0, malformed: 0, firstTs: null, lastTs: null };
    for (let i = 0; i < b.logId.length; i++) {
      const timestamp = b.timestamp[i]!;
      track(result, timestamp, b.parseError[i]!);
      const { changes } = this.insert.run(
        zone,
        b.logId[i],
        day,
        timestamp,
        b.asn[i],
        b.country[i],
        b.ruleId[i],
        b.severity[i],
        b.method[i],
        b.ruleGroup[i],
        b.status[i],
        b.serverZone[i],
        b.url[i],
        b.remoteIp[i],
        b.message[i],
        b.log[i],
        b.parseError[i],
        b.extraLabels[i],
      );
      if (changes === 0) continue;
      result.inserted++;
      const hour = hourStart(timestamp);
      const rule = b.ruleId[i] ?? '';
      const severity = b.severity[i] ?? '';
      const status = b.status[i] ?? '';
      counter.add(`${hour}|${rule}|${severity}|${status}`, [hour, rule, severity, status]);
    }
    for (const { parts, count } of counter.entries()) {
      this.rollup.run(zone, parts[0], parts[1], parts[2], parts[3], count);
    }
    return result;
  }

  /** store() for rows as objects (tests, tools). */
  storeRows(zone: number, day: string, rows: readonly ShieldRow[]): StoreResult {
    return this.store(zone, day, shieldBatch(rows));
  }

  prune(beforeMs: number, batch = 10_000): number {
    return pruneTable(this.db, 'shield_event_logs', 'shield_zone_id', 'shield_hourly', beforeMs, batch);
  }
}
