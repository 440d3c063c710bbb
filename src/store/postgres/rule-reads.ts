// What the alert rules measure on PostgreSQL, read from the tables of others: the ledger's coverage and
// last success, the hourly rollups, the guardian snapshots (RuleReads; sqlite/rule-reads.ts is its twin).
import type pg from 'pg';
import { archivedSql } from '../ledger-rules.js';
import type { CounterReading, RuleReads, SpikeFilter } from '../store.js';

export class PostgresRuleReads implements RuleReads {
  constructor(private readonly pool: pg.Pool) {}

  async coverage(source: string, zone: number): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ log_date: string; covered_until: number }>(
      `SELECT log_date, covered_until FROM ingest_ledger
       WHERE source = $1 AND zone_id = $2 AND covered_until IS NOT NULL`,
      [source, zone],
    );
    return new Map(rows.map((r) => [r.log_date, r.covered_until]));
  }

  async count(
    source: 'origin' | 'shield',
    zone: number,
    from: number,
    to: number,
    f: SpikeFilter,
  ): Promise<number> {
    const sql =
      source === 'origin'
        ? `SELECT coalesce(sum(count), 0)::bigint AS n FROM origin_hourly
           WHERE pull_zone_id = $1 AND hour >= $2 AND hour < $3
             AND status_code BETWEEN $4 AND $5 AND ($6::text IS NULL OR error_code = $6)`
        : `SELECT coalesce(sum(count), 0)::bigint AS n FROM shield_hourly
           WHERE shield_zone_id = $1 AND hour >= $2 AND hour < $3
             AND ($4::text IS NULL OR severity = $4) AND ($5::text IS NULL OR rule_id = $5)
             AND ($6::text IS NULL OR status = $6)`;
    const params =
      source === 'origin'
        ? [zone, from, to, f.statusCodeMin ?? 0, f.statusCodeMax ?? 999, f.errorCode ?? null]
        : [zone, from, to, f.severity ?? null, f.ruleId ?? null, f.status ?? null];
    const { rows } = await this.pool.query<{ n: number }>(sql, params);
    return rows[0]!.n;
  }

  async lastSuccess(source: string, zone: number): Promise<number | null> {
    const { rows } = await this.pool.query<{ t: number | null }>(
      `SELECT max(finished_at) AS t FROM ingest_ledger
       WHERE source = $1 AND zone_id = $2 AND ${archivedSql('state')}`,
      [source, zone],
    );
    return rows[0]!.t;
  }

  async latestSnapshot(zone: number, column: string, until?: string): Promise<CounterReading | undefined> {
    if (!/^total_[a-z_]+$/.test(column)) throw new Error(`not a snapshot counter: ${column}`);
    const { rows } = await this.pool.query<CounterReading>(
      `SELECT taken_at, ${column} AS value FROM api_guardian_snapshots
       WHERE shield_zone_id = $1 AND ${column} IS NOT NULL AND ($2::text IS NULL OR taken_at <= $2)
       ORDER BY taken_at DESC, id DESC LIMIT 1`,
      [zone, until ?? null],
    );
    return rows[0];
  }
}
