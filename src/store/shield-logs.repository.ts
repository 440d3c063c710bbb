// shield_event_logs and its hourly rollup.
import type { ShieldRow } from '../ingest/parse-entries.js';
import type { Db } from './database.js';
import { RollupCounter, hourStart } from './hourly-rollup.js';
import { pruneTable, type StoreResult } from './origin-logs.repository.js';

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
  store(zone: number, day: string, rows: readonly ShieldRow[]): StoreResult {
    const counter = new RollupCounter<[number, string, string, string]>();
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
        r.asn,
        r.country,
        r.ruleId,
        r.severity,
        r.method,
        r.ruleGroup,
        r.status,
        r.serverZone,
        r.url,
        r.remoteIp,
        r.message,
        r.log,
        r.parseError,
        r.extraLabels,
      );
      if (changes === 0) continue;
      inserted++;
      const hour = hourStart(r.timestamp);
      const rule = r.ruleId ?? '';
      const severity = r.severity ?? '';
      const status = r.status ?? '';
      counter.add(`${hour}|${rule}|${severity}|${status}`, [hour, rule, severity, status]);
    }
    for (const { parts, count } of counter.entries()) {
      this.rollup.run(zone, parts[0], parts[1], parts[2], parts[3], count);
    }
    return { inserted, malformed, firstTs, lastTs };
  }

  prune(beforeMs: number, batch = 10_000): number {
    return pruneTable(this.db, 'shield_event_logs', 'shield_zone_id', 'shield_hourly', beforeMs, batch);
  }
}
