// The history's flush on SQLite (history-store.ts FlushStore): the rows of a range of write batches,
// found by the batch index (migrations/sqlite/0012) and read page by page in (batch, rowid) order,
// which is that index's own order. One writer at a time: every batch up to write_batch.last has
// committed, so the horizon is the next number.
import type { Statement } from 'better-sqlite3';
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
import type { Db } from './database.js';
import { WriteBatchRepository } from './write-batch.js';

interface TableStatements {
  rowsFrom: Statement;
  days: Statement;
  daysBefore: Statement;
  page: Statement;
}

export class SqliteFlush implements FlushStore {
  private readonly batches;
  private readonly claimStmt;
  private readonly releaseStmt;
  private readonly recordStmt;
  private readonly tables = new Map<HistoryTable, TableStatements>();

  constructor(private readonly db: Db) {
    this.batches = new WriteBatchRepository(db);
    this.claimStmt = db.prepare(`UPDATE history_flush SET lease_owner = @owner, lease_until = @until
      WHERE id = 1 AND (lease_owner IS NULL OR lease_until <= @now OR lease_owner = @owner)`);
    this.releaseStmt = db.prepare(
      'UPDATE history_flush SET lease_owner = NULL, lease_until = NULL WHERE id = 1 AND lease_owner = ?',
    );
    this.recordStmt = db.prepare(
      'UPDATE history_flush SET below = ?, flushed_at = ? WHERE id = 1 AND lease_owner = ?',
    );
    for (const source of ['origin', 'shield'] as const) {
      const { table, zoneColumn: zone } = ENTRY_TABLES[source];
      this.tables.set(table, {
        rowsFrom: db.prepare(`SELECT count(*) FROM ${table} INDEXED BY ${table}_batch WHERE batch >= ?`),
        days: db.prepare(
          `SELECT DISTINCT ${zone}, log_date FROM ${table} INDEXED BY ${table}_batch WHERE batch >= ? AND batch < ?`,
        ),
        daysBefore: db.prepare(
          `SELECT count(*), ${zone}, log_date FROM ${table} WHERE batch IS NULL OR batch < ? GROUP BY 2, 3`,
        ),
        page: db.prepare(flushPageSql(table, entryShape(source), `${zone} = @zone AND log_date = @day`)),
      });
    }
    this.tables.set('quarantined_entries', {
      rowsFrom: db.prepare(
        'SELECT count(*) FROM quarantined_entries INDEXED BY quarantined_entries_batch WHERE batch >= ?',
      ),
      days: db.prepare(
        'SELECT DISTINCT zone_id, log_date, source FROM quarantined_entries INDEXED BY quarantined_entries_batch WHERE batch >= ? AND batch < ?',
      ),
      daysBefore: db.prepare(
        'SELECT count(*), zone_id, log_date, source FROM quarantined_entries WHERE batch IS NULL OR batch < ? GROUP BY 2, 3, 4',
      ),
      page: db.prepare(
        flushPageSql(
          'quarantined_entries',
          QUARANTINE_SHAPE,
          'zone_id = @zone AND log_date = @day AND source = @source',
        ),
      ),
    });
  }

  claim(owner: string, now: number, leaseMs: number): Promise<boolean> {
    return settle(() =>
      this.db
        .transaction(() => this.claimStmt.run({ owner, until: now + leaseMs, now }).changes === 1)
        .immediate(),
    );
  }

  release(owner: string): Promise<void> {
    return settle(() => void this.releaseStmt.run(owner));
  }

  record(owner: string, below: bigint, now: number): Promise<void> {
    return settle(() => void this.recordStmt.run(below, now, owner));
  }

  horizon(): Promise<bigint> {
    return settle(() => BigInt(this.batches.last()) + 1n);
  }

  rowsFrom(table: HistoryTable, from: bigint): Promise<number> {
    return settle(() => Number(this.statements(table).rowsFrom.pluck().get(from)));
  }

  days(table: HistoryTable, from: bigint, below: bigint): Promise<FlushDay[]> {
    return settle(() =>
      flushDays(this.statements(table).days.raw(true).all(from, below) as HistoryValue[][]),
    );
  }

  daysBefore(table: HistoryTable, below: bigint): Promise<FlushDayRows[]> {
    return settle(() =>
      flushDayRows(this.statements(table).daysBefore.raw(true).all(below) as HistoryValue[][]),
    );
  }

  page(
    table: HistoryTable,
    day: FlushDay,
    from: bigint,
    below: bigint,
    after: FlushCursor | null,
    limit: number,
  ): Promise<FlushPage> {
    return settle(() => {
      const afterBatch = after?.[0] ?? from - 1n;
      const args = {
        // The page starts at the cursor's batch: the index walk skips every batch flushed before it.
        lo: afterBatch > from ? afterBatch : from,
        below,
        zone: day.zone,
        day: day.day,
        ...(table === 'quarantined_entries' ? { source: day.source ?? null } : {}),
        afterBatch,
        afterId: after?.[1] ?? 0n,
        limit,
      };
      const row = this.statements(table).page.raw(true).safeIntegers(true).get(args) as BytesPageRow;
      return bytesPage(row);
    });
  }

  private statements(table: HistoryTable): TableStatements {
    return this.tables.get(table)!;
  }
}

/**
 * A page of a zone-day's rows of the batches [@lo, @below) after the cursor (@afterBatch, @afterId), in
 * (batch, id) order: the batch index's own order, walked from the cursor's batch on. Forced: with an
 * equality on the zone, SQLite's planner took the (zone, timestamp) key and read and sorted every row
 * the zone holds for each page (a 1M-entry day's flush read its zone about a thousand times over); and a
 * row value `(batch, id) > (…)` bounds the walk by the batch only where it is the tighter bound, so the
 * cursor's batch is the walk's lower bound here and its id a filter within that batch.
 *
 * The page comes as one row (HistoryBytesPage): its count; its last (batch, id), as the greatest of
 * their zero-padded digits (ties of the batch alone would leave the id to chance); the longest line's
 * bytes; the rows' JSON lines (json_array) and their framed keys, each concatenated into one blob. One
 * value per row and cell made in JavaScript cost more than SQLite's reading of the rows (issue 29:
 * bench/flush-cost.ts). The subquery is not flattened into the aggregate (it has a LIMIT), so each
 * row's key and JSON are made once.
 */
export function flushPageSql(table: HistoryTable, shape: HistoryTableShape, zoneDay: string): string {
  const columns = shape.columns.map((c) => c.name).join(', ');
  return `SELECT count(*), max(printf('%020d%020d', batch, id)), max(length(CAST(j AS BLOB))),
      CAST(group_concat(j || char(10), '') AS BLOB),
      CAST(group_concat(length(CAST(k AS BLOB)) || ':' || k || char(10), '') AS BLOB)
    FROM (SELECT batch, id, ${keyTextSql(shape)} AS k, json_array(${columns}) AS j
      FROM ${table} INDEXED BY ${table}_batch
      WHERE batch >= @lo AND batch < @below AND (batch > @afterBatch OR id > @afterId) AND ${zoneDay}
      ORDER BY batch, id LIMIT @limit)`;
}

/**
 * SQLite's text of a row's key as KeyChecksum.add joins its values, and DuckDB's key read-back makes it
 * of the file's (history/key-readback.ts keyTextSql): integers as their digits, parts joined by NUL, a
 * NULL part "null" in a key of three parts and empty in any other.
 */
function keyTextSql(shape: HistoryTableShape): string {
  const absent = shape.key.length === 3 ? `'null'` : `''`;
  return shape.key.map((name) => `coalesce(CAST(${name} AS TEXT), ${absent})`).join(' || char(0) || ');
}

// An async function turns a synchronous throw into a rejected promise.
// eslint-disable-next-line @typescript-eslint/require-await
const settle = async <T>(work: () => T): Promise<T> => work();
