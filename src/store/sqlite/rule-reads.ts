// What the alert rules measure, read from the tables of others: the ledger's coverage and last success,
// the hourly rollups, the guardian snapshots (RuleReads; postgres/rule-reads.ts is its twin).
import { archivedSql } from '../ledger-rules.js';
import type { CounterReading, SpikeFilter } from '../store.js';
import type { Db } from './database.js';

/** Per day (YYYY-MM-DD): the ledger's covered_until. */
export type Coverage = ReadonlyMap<string, number>;

export class RuleReadsRepository {
  constructor(private readonly db: Db) {}

  /** Per-day coverage of a zone's archive (ledger covered_until). */
  coverage(source: string, zone: number): Coverage {
    const rows = this.db
      .prepare(
        'SELECT log_date, covered_until FROM ingest_ledger WHERE source = ? AND zone_id = ? AND covered_until IS NOT NULL',
      )
      .all(source, zone) as Array<{ log_date: string; covered_until: number }>;
    return new Map(rows.map((r) => [r.log_date, r.covered_until]));
  }

  /** Entries matching a filter in [from, to), from the hourly rollups (a few rows per hour). */
  count(source: 'origin' | 'shield', zone: number, from: number, to: number, f: SpikeFilter): number {
    if (source === 'origin') {
      return this.db
        .prepare(
          `SELECT coalesce(sum(count), 0) FROM origin_hourly
           WHERE pull_zone_id = @zone AND hour >= @from AND hour < @to
             AND status_code BETWEEN @min AND @max AND (@errorCode IS NULL OR error_code = @errorCode)`,
        )
        .pluck()
        .get({
          zone,
          from,
          to,
          min: f.statusCodeMin ?? 0,
          max: f.statusCodeMax ?? 999,
          errorCode: f.errorCode ?? null,
        }) as number;
    }
    return this.db
      .prepare(
        `SELECT coalesce(sum(count), 0) FROM shield_hourly
         WHERE shield_zone_id = @zone AND hour >= @from AND hour < @to
           AND (@severity IS NULL OR severity = @severity) AND (@ruleId IS NULL OR rule_id = @ruleId)
           AND (@status IS NULL OR status = @status)`,
      )
      .pluck()
      .get({
        zone,
        from,
        to,
        severity: f.severity ?? null,
        ruleId: f.ruleId ?? null,
        status: f.status ?? null,
      }) as number;
  }

  /** End of the zone's last successful pass (ms), or null if it never had one. */
  lastSuccess(source: string, zone: number): number | null {
    return this.db
      .prepare(
        `SELECT max(finished_at) FROM ingest_ledger WHERE source = ? AND zone_id = ? AND ${archivedSql('state')}`,
      )
      .pluck()
      .get(source, zone) as number | null;
  }

  /** The newest snapshot holding `column`, taken at or before `until` (ISO) when given. */
  latestSnapshot(zone: number, column: string, until?: string): CounterReading | undefined {
    if (!/^total_[a-z_]+$/.test(column)) throw new Error(`not a snapshot counter: ${column}`);
    return this.db
      .prepare(
        `SELECT taken_at, ${column} AS value FROM api_guardian_snapshots
         WHERE shield_zone_id = ? AND ${column} IS NOT NULL AND (? IS NULL OR taken_at <= ?)
         ORDER BY taken_at DESC, id DESC LIMIT 1`,
      )
      .get(zone, until ?? null, until ?? null) as CounterReading | undefined;
  }
}
