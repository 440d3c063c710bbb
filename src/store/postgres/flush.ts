// The history's flush on PostgreSQL (history-store.ts FlushStore), as sqlite/flush.ts on SQLite: the rows
// of a range of write batches by the batch index, page by page in (batch, id) order. The horizon waits,
// under SHARE on write_batch, for every page transaction that took a number (migrations/postgres/0009).
import type pg from 'pg';
import {
  entryShape,
  QUARANTINE_SHAPE,
  type HistoryTable,
  type HistoryTableShape,
} from '../history-columns.js';
import type {
  FlushCursor,
  FlushDay,
  FlushDayRows,
  FlushPage,
  FlushStore,
  HistoryValue,
} from '../history-store.js';
import { bytesPage, flushDayRows, flushDays, type BytesPageRow } from '../history-page.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import { transaction } from './transaction.js';

/** The zone column, the table's shape and whether its rows carry a source, per table. */
function tableSql(table: HistoryTable): { zone: string; shape: HistoryTableShape; source: boolean } {
  if (table === 'quarantined_entries') return { zone: 'zone_id', shape: QUARANTINE_SHAPE, source: true };
  const source = table === 'origin_error_logs' ? 'origin' : 'shield';
  return { zone: ENTRY_TABLES[source].zoneColumn, shape: entryShape(source), source: false };
}

/**
 * A page as one row, as SQLite's (sqlite/flush.ts flushPageSql, history-page.ts BytesPageRow): its
 * count, its last (batch, id) as the greatest of their zero-padded digits, the longest line's bytes, the
 * rows' JSON lines (json_build_array's text) and their framed keys (`<bytes>:<key>\n`), each one bytea in
 * (batch, id) order. The key is built as bytes: its parts are joined by NUL, which text cannot hold. One
 * value per row and cell made in JavaScript cost more than the server's reading of the rows (issue 29).
 */
export function flushPageSql(
  table: HistoryTable,
  zone: string,
  shape: HistoryTableShape,
  source: boolean,
): string {
  const columns = shape.columns.map((c) => c.name).join(', ');
  const absent = shape.key.length === 3 ? `'null'` : `''`;
  const key = shape.key
    .map((name) => `convert_to(coalesce(${name}::text, ${absent}), 'UTF8')`)
    .join(` || '\\x00'::bytea || `);
  return `SELECT count(*), max(lpad(batch::text, 20, '0') || lpad(id::text, 20, '0')), max(octet_length(j)),
      string_agg(convert_to(j, 'UTF8') || '\\x0a'::bytea, ''::bytea ORDER BY batch, id),
      string_agg(convert_to(length(k)::text || ':', 'UTF8') || k || '\\x0a'::bytea, ''::bytea ORDER BY batch, id)
    FROM (SELECT batch, id, ${key} AS k, json_build_array(${columns})::text AS j FROM ${table}
      WHERE batch >= $1 AND batch < $2 AND ${zone} = $3 AND log_date = $4
        AND (batch, id) > ($5, $6) ${source ? 'AND source = $8' : 'AND $8::text IS NULL'}
      ORDER BY batch, id LIMIT $7) AS page`;
}

export class PostgresFlush implements FlushStore {
  constructor(private readonly pool: pg.Pool) {}

  async claim(owner: string, now: number, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE history_flush SET lease_owner = $1, lease_until = $2
       WHERE id = 1 AND (lease_owner IS NULL OR lease_until <= $3 OR lease_owner = $1)`,
      [owner, now + leaseMs, now],
    );
    return r.rowCount === 1;
  }

  async release(owner: string): Promise<void> {
    await this.pool.query(
      'UPDATE history_flush SET lease_owner = NULL, lease_until = NULL WHERE id = 1 AND lease_owner = $1',
      [owner],
    );
  }

  async record(owner: string, below: bigint, now: number): Promise<void> {
    await this.pool.query(
      'UPDATE history_flush SET below = $1, flushed_at = $2 WHERE id = 1 AND lease_owner = $3',
      [below.toString(), now, owner],
    );
  }

  horizon(): Promise<bigint> {
    return transaction(this.pool, async (c) => {
      // Waits for the page transactions that hold a number, and keeps new ones from taking one until
      // the sequence is read: every number up to the one read has then committed.
      await c.query('LOCK TABLE write_batch IN SHARE MODE');
      const { rows } = await c.query<{ last_value: string; is_called: boolean }>(
        'SELECT last_value, is_called FROM write_batch_seq',
      );
      const row = rows[0]!;
      return (row.is_called ? BigInt(row.last_value) : 0n) + 1n;
    });
  }

  async rowsFrom(table: HistoryTable, from: bigint): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>({
      text: `SELECT count(*) AS n FROM ${table} WHERE batch >= $1`,
      values: [from.toString()],
    });
    return Number(rows[0]!.n);
  }

  async days(table: HistoryTable, from: bigint, below: bigint): Promise<FlushDay[]> {
    const { zone, source } = tableSql(table);
    const { rows } = await this.pool.query<HistoryValue[]>({
      text: `SELECT DISTINCT ${zone}, log_date${source ? ', source' : ''} FROM ${table}
        WHERE batch >= $1 AND batch < $2`,
      values: [from.toString(), below.toString()],
      rowMode: 'array',
    });
    return flushDays(rows);
  }

  async daysBefore(table: HistoryTable, below: bigint): Promise<FlushDayRows[]> {
    const { zone, source } = tableSql(table);
    const { rows } = await this.pool.query<HistoryValue[]>({
      text: `SELECT count(*), ${zone}, log_date${source ? ', source' : ''} FROM ${table}
        WHERE batch IS NULL OR batch < $1 GROUP BY 2, 3${source ? ', 4' : ''}`,
      values: [below.toString()],
      rowMode: 'array',
    });
    return flushDayRows(rows);
  }

  async page(
    table: HistoryTable,
    day: FlushDay,
    from: bigint,
    below: bigint,
    after: FlushCursor | null,
    limit: number,
  ): Promise<FlushPage> {
    const { zone, shape, source } = tableSql(table);
    // The table's batch and id in the ORDER BYs, not casts of them: `batch::text` sorted a page as text
    // ("1199" < "999") while the cursor compared numbers (test/history/flush-page-order.test.ts).
    // The page is the batch index read in order from the cursor, stopped at `limit` rows. Right after a
    // big ingest the table's statistics are stale (autovacuum has not analyzed it yet): the planner then
    // took the zone's key index and the batch index as a bitmap and sorted every row of the batch range
    // for each page, ~550 ms a page for a 200,000-row day, growing with the day (1.7 ms once analyzed).
    // With sorts priced out for this one statement, it reads the index in order whatever the statistics.
    const rows = await transaction(
      this.pool,
      async (client) => {
        await client.query('SET LOCAL enable_sort = off');
        const result = await client.query<BytesPageRow>({
          text: flushPageSql(table, zone, shape, source),
          values: [
            from.toString(),
            below.toString(),
            day.zone,
            day.day,
            (after?.[0] ?? from - 1n).toString(),
            (after?.[1] ?? 0n).toString(),
            limit,
            source ? (day.source ?? null) : null,
          ],
          rowMode: 'array',
        });
        return result.rows;
      },
      { mode: 'READ ONLY' },
    );
    return bytesPage(rows[0]!);
  }
}
