// The history's flush on PostgreSQL (history-store.ts FlushStore), as sqlite/flush.ts on SQLite: the rows
// of a range of write batches by the batch index, page by page in (batch, id) order. The horizon waits,
// under SHARE on write_batch, for every page transaction that took a number (migrations/postgres/0009).
import type pg from 'pg';
import { entryShape, QUARANTINE_SHAPE, type HistoryTable } from '../history-columns.js';
import type {
  FlushCursor,
  FlushDay,
  FlushDayRows,
  FlushPage,
  FlushStore,
  HistoryValue,
} from '../history-store.js';
import { flushDayRows, flushDays, flushPage, pageColumns } from '../history-page.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import { transaction } from './transaction.js';

// As text: pg would parse a json value into objects.
const jsonArray = (columns: string) => `json_build_array(${columns})::text`;

/** The zone column, the page's select list and its extra condition, per table. */
function tableSql(table: HistoryTable): { zone: string; cols: string; source: boolean } {
  if (table === 'quarantined_entries')
    return { zone: 'zone_id', cols: pageColumns(QUARANTINE_SHAPE, jsonArray), source: true };
  const source = table === 'origin_error_logs' ? 'origin' : 'shield';
  return {
    zone: ENTRY_TABLES[source].zoneColumn,
    cols: pageColumns(entryShape(source), jsonArray),
    source: false,
  };
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
    const { zone, cols, source } = tableSql(table);
    // The table's batch and id, not casts of them: ORDER BY takes an output column of the same name
    // first, so `batch::text` here sorted the page as text ("1199" < "999") while the cursor compared
    // numbers, and pages skipped or repeated rows (test/history/flush-page-order.test.ts).
    const { rows } = await this.pool.query<HistoryValue[]>({
      text: `SELECT batch, id, ${cols} FROM ${table}
        WHERE batch >= $1 AND batch < $2 AND ${zone} = $3 AND log_date = $4
          AND (batch, id) > ($5, $6) ${source ? 'AND source = $8' : 'AND $8::text IS NULL'}
        ORDER BY batch, id LIMIT $7`,
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
    return flushPage(rows);
  }
}
