// What reports read, on PostgreSQL: counts from the hourly rollups, top values from the entries within
// a window, and guardian snapshots, all from one REPEATABLE READ snapshot. Orders match SQLite's: NULL
// first, text in byte order ("C" collation).
import type pg from 'pg';
import type { LogSource } from '../ledger-types.js';
import type {
  GuardianSnapshotRow,
  RawDimension,
  ReadScope,
  ReportReads,
  ReportStore,
  RollupDimension,
  TopItem,
} from '../store.js';
import { dayOf } from '../../time/utc-day.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import { transaction } from './transaction.js';

/** Each dimension's SQL over its rollup, and whether it is text (ordered in byte order). */
const DIMENSIONS: Record<RollupDimension, { source: LogSource; expr: string; text: boolean }> = {
  status_class: { source: 'origin', expr: 'edgelog_status_class(status_code)', text: true },
  status_code: { source: 'origin', expr: 'NULLIF(status_code, 0)', text: false },
  error_code: { source: 'origin', expr: "NULLIF(error_code, '')", text: true },
  rule_id: { source: 'shield', expr: "NULLIF(rule_id, '')", text: true },
  severity: { source: 'shield', expr: "NULLIF(severity, '')", text: true },
  status: { source: 'shield', expr: "NULLIF(status, '')", text: true },
};

const RAW: Record<RawDimension, LogSource> = {
  request_url: 'origin',
  server_zone: 'origin',
  country: 'shield',
  asn: 'shield',
  method: 'shield',
};

/** ORDER BY of a key: an expression (PostgreSQL takes an output name alone, not inside one). */
const orderKey = (expr: string, text: boolean) => `(${expr})${text ? ' COLLATE "C"' : ''} NULLS FIRST`;

/** WHERE and parameters bounding a rollup by zone (when given) and hour, along its primary key. */
function bounds(source: LogSource, scope: ReadScope): { where: string; params: unknown[] } {
  const t = ENTRY_TABLES[source];
  return scope.zone === null
    ? { where: 'hour >= $1 AND hour < $2', params: [scope.startMs, scope.endMs] }
    : {
        where: `${t.zoneColumn} = $3 AND hour >= $1 AND hour < $2`,
        params: [scope.startMs, scope.endMs, scope.zone],
      };
}

export class PostgresReportReads implements ReportReads {
  constructor(private readonly c: pg.ClientBase) {}

  async zoneTotals(source: LogSource, scope: ReadScope): Promise<Array<{ zone: number; count: number }>> {
    const t = ENTRY_TABLES[source];
    const { where, params } = bounds(source, scope);
    const { rows } = await this.c.query<{ zone: number; count: number }>(
      `SELECT ${t.zoneColumn} AS zone, sum(count)::bigint AS count FROM ${t.rollup.table} WHERE ${where}
       GROUP BY ${t.zoneColumn} ORDER BY count DESC, zone`,
      params,
    );
    return rows;
  }

  async buckets(
    source: LogSource,
    scope: ReadScope,
    bucketMs: number,
  ): Promise<Array<{ start: number; count: number }>> {
    const t = ENTRY_TABLES[source];
    const { where, params } = bounds(source, scope);
    const size = `$${params.length + 1}::bigint`;
    const { rows } = await this.c.query<{ start: number; count: number }>(
      `SELECT hour - (hour % ${size}) AS start, sum(count)::bigint AS count FROM ${t.rollup.table}
       WHERE ${where} GROUP BY 1 ORDER BY 1`,
      [...params, bucketMs],
    );
    return rows;
  }

  async rollupTop(
    source: LogSource,
    scope: ReadScope,
    dimension: RollupDimension,
    limit: number | null,
  ): Promise<Array<TopItem<string | number | null>>> {
    const d = DIMENSIONS[dimension];
    if (d.source !== source) throw new TypeError(`${dimension} is not a ${source} rollup dimension`);
    const t = ENTRY_TABLES[source];
    const { where, params } = bounds(source, scope);
    const { rows } = await this.c.query<TopItem<string | number | null>>(
      `SELECT ${d.expr} AS key, sum(count)::bigint AS count FROM ${t.rollup.table} WHERE ${where}
       GROUP BY 1 ORDER BY count DESC, ${orderKey(d.expr, d.text)} LIMIT $${params.length + 1}`,
      [...params, limit],
    );
    return rows;
  }

  async rawTop(
    source: LogSource,
    zones: readonly number[],
    scope: ReadScope,
    column: RawDimension,
    limit: number,
  ): Promise<TopItem[]> {
    if (RAW[column] !== source) throw new TypeError(`${column} is not a ${source} entry column`);
    if (zones.length === 0) return [];
    const t = ENTRY_TABLES[source];
    const { rows } = await this.c.query<TopItem>(
      `SELECT ${column} AS key, count(*)::bigint AS count FROM ${t.table}
       WHERE ${t.zoneColumn} = ANY ($1::bigint[]) AND timestamp >= $2 AND timestamp < $3
       GROUP BY 1 ORDER BY count DESC, ${orderKey(column, true)} LIMIT $4`,
      [zones, scope.startMs, scope.endMs, limit],
    );
    return rows;
  }

  async ruleMessage(zones: readonly number[], scope: ReadScope, ruleId: string): Promise<string | null> {
    if (zones.length === 0) return null;
    const { rows } = await this.c.query<{ message: string }>(
      `SELECT message FROM shield_event_logs
       WHERE shield_zone_id = ANY ($1::bigint[]) AND timestamp >= $2 AND timestamp < $3
         AND rule_id = $4 AND message IS NOT NULL LIMIT 1`,
      [zones, scope.startMs, scope.endMs, ruleId],
    );
    return rows[0]?.message ?? null;
  }

  async guardianSnapshots(scope: ReadScope): Promise<GuardianSnapshotRow[]> {
    // taken_at is ISO-8601 text in the "C" collation, so text order is time order.
    const { rows } = await this.c.query<GuardianSnapshotRow>(
      `SELECT * FROM api_guardian_snapshots
       WHERE ($1::bigint IS NULL OR shield_zone_id = $1) AND taken_at >= $2 AND taken_at < $3
       ORDER BY shield_zone_id, taken_at, id`,
      [scope.zone, new Date(scope.startMs).toISOString(), new Date(scope.endMs).toISOString()],
    );
    return rows;
  }

  async coverage(source: LogSource, scope: ReadScope): Promise<Map<string, number>> {
    const [from, to] = [dayOf(scope.startMs), dayOf(scope.endMs - 1)];
    const { rows } = await this.c.query<{ log_date: string; covered_until: number }>(
      `SELECT log_date, max(covered_until) AS covered_until FROM ingest_ledger
       WHERE source = $1 AND ($2::bigint IS NULL OR zone_id = $2) AND covered_until IS NOT NULL
         AND log_date >= $3 AND log_date <= $4
       GROUP BY log_date`,
      [source, scope.zone, from, to],
    );
    return new Map(rows.map((r) => [r.log_date, Number(r.covered_until)]));
  }
}

export class PostgresReports implements ReportStore {
  constructor(private readonly pool: pg.Pool) {}

  snapshot<T>(read: (reads: ReportReads) => Promise<T>): Promise<T> {
    return transaction(this.pool, (c) => read(new PostgresReportReads(c)), {
      mode: 'ISOLATION LEVEL REPEATABLE READ READ ONLY',
    });
  }
}
