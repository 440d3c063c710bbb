// history_days and the reads and deletes of the Parquet history (src/history/) on PostgreSQL, as
// sqlite/history.ts on SQLite. Pages are read by key (keyset), each query short: entries in their key
// index's order, the quarantine in byte order (COLLATE "C"); the timestamp bounds let the server prune to
// the day's partitions. Reclaiming drops the day partitions that pruning left empty.
import type pg from 'pg';
import { EdgelogError } from '../../errors/index.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTable } from '../history-columns.js';
import { daysOf } from './partition-plan.js';
import type { Day } from '../../time/utc-day.js';
import type {
  HistoryDayKey,
  HistoryDayRow,
  HistoryPage,
  HistoryRecord,
  HistoryStore,
  HistoryValue,
  ReclaimResult,
  TimeBounds,
} from '../history-store.js';
import { historyPage, pageColumns } from '../history-page.js';
import type { LogSource } from '../ledger-types.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import type { Partitions } from './partitions.js';
import { PARTITION_LOCK } from './partitions.js';
import { sqlState, transaction } from './transaction.js';
import { PostgresFlush } from './flush.js';

// As text: pg would parse a json value into objects.
const jsonArray = (columns: string) => `json_build_array(${columns})::text`;

const sourceOf = (table: HistoryTable): LogSource => (table === 'origin_error_logs' ? 'origin' : 'shield');

// Beyond every timestamp a page can carry (the `_far` partition starts at the year 10000).
const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

export class PostgresHistory implements HistoryStore {
  readonly flush: PostgresFlush;

  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: Partitions,
    /** How long dropping a partition waits for its locks. */
    private readonly dropLockTimeoutMs = 2_000,
  ) {
    this.flush = new PostgresFlush(pool);
  }

  async list(filter: { source?: LogSource; zone?: number } = {}): Promise<HistoryDayRow[]> {
    const { rows } = await this.pool.query<HistoryDayRow>(
      `SELECT * FROM history_days
       WHERE ($1::text IS NULL OR source = $1) AND ($2::bigint IS NULL OR zone_id = $2)
       ORDER BY source, zone_id, log_date`,
      [filter.source ?? null, filter.zone ?? null],
    );
    return rows;
  }

  async claim(key: HistoryDayKey, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `INSERT INTO history_days (source, zone_id, log_date, lease_owner, lease_until)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (source, zone_id, log_date) DO UPDATE
         SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
         WHERE history_days.lease_owner IS NULL OR history_days.lease_until <= $6
            OR history_days.lease_owner = excluded.lease_owner`,
      [key.source, key.zone, key.day, owner, now + leaseMs, now],
    );
    return r.rowCount === 1;
  }

  async release(key: HistoryDayKey, owner: string): Promise<void> {
    await this.pool.query(
      `UPDATE history_days SET lease_owner = NULL, lease_until = NULL
       WHERE source = $1 AND zone_id = $2 AND log_date = $3 AND lease_owner = $4`,
      [key.source, key.zone, key.day, owner],
    );
  }

  async record(key: HistoryDayKey, owner: string, rec: HistoryRecord, now: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE history_days SET entries = $5, quarantined = $6, bytes = $7, checksum = $8,
         quarantine_checksum = $9, ledger_entries = $10, ledger_quarantined = $11, compacted_at = $12,
         part = $13, quarantine_part = $14
       WHERE source = $1 AND zone_id = $2 AND log_date = $3 AND lease_owner = $4`,
      [
        key.source,
        key.zone,
        key.day,
        owner,
        rec.entries,
        rec.quarantined,
        rec.bytes,
        rec.checksum,
        rec.quarantineChecksum,
        rec.ledgerEntries,
        rec.ledgerQuarantined,
        now,
        rec.part,
        rec.quarantinePart,
      ],
    );
    return r.rowCount === 1;
  }

  async restore(key: HistoryDayKey, table: HistoryTable, rows: readonly HistoryValue[][]): Promise<number> {
    if (rows.length === 0) return 0;
    const shape = table === 'quarantined_entries' ? QUARANTINE_SHAPE : entryShape(sourceOf(table));
    // The partitions pruning may have dropped: the rows' days (entries) or the day fetched (quarantine).
    const at = shape.columns.findIndex((c) => c.name === 'timestamp');
    const [days, quarantineDays] =
      table === 'quarantined_entries' ? [[], [key.day as Day]] : [daysOf(rows.map((r) => Number(r[at]))), []];
    const cols = shape.columns.map((c) => c.name);
    // One array per column: a statement of any number of rows, its parameters fixed.
    const arrays = shape.columns.map((c, i) => ({
      value: rows.map((r) => (r[i] === null || r[i] === undefined ? null : String(r[i]))),
      type: c.kind === 'int' ? 'bigint' : 'text',
    }));
    const r = await this.partitions.writing(days, quarantineDays, () =>
      this.pool.query(
        `INSERT INTO ${table} (${cols.join(', ')}, batch)
         SELECT *, 0 FROM unnest(${arrays.map((a, i) => `$${i + 1}::${a.type}[]`).join(', ')})
         ON CONFLICT (${shape.key.join(', ')}) DO NOTHING`,
        arrays.map((a) => a.value),
      ),
    );
    return r.rowCount ?? 0;
  }

  async markLost(key: HistoryDayKey, owner: string, entries: number, now: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE history_days SET lost_entries = coalesce(lost_entries, 0) + $5, lost_at = $6
       WHERE source = $1 AND zone_id = $2 AND log_date = $3 AND lease_owner = $4`,
      [key.source, key.zone, key.day, owner, entries, now],
    );
    return r.rowCount === 1;
  }

  async unprune(key: HistoryDayKey, owner: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE history_days SET pruned_at = NULL
       WHERE source = $1 AND zone_id = $2 AND log_date = $3 AND lease_owner = $4`,
      [key.source, key.zone, key.day, owner],
    );
    return r.rowCount === 1;
  }

  async markPruned(key: HistoryDayKey, owner: string, now: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE history_days SET pruned_at = $5
       WHERE source = $1 AND zone_id = $2 AND log_date = $3 AND lease_owner = $4 AND compacted_at IS NOT NULL`,
      [key.source, key.zone, key.day, owner, now],
    );
    return r.rowCount === 1;
  }

  async entryPage(
    key: HistoryDayKey,
    after: readonly [number | bigint, string] | null,
    limit: number,
    bounds: TimeBounds | null,
    below?: bigint,
  ): Promise<HistoryPage> {
    const { table: raw, zoneColumn: zone } = ENTRY_TABLES[key.source];
    const cols = pageColumns(entryShape(key.source), jsonArray);
    const from = bounds?.fromMs ?? MIN;
    const to = bounds?.toMs ?? MAX;
    // In the key index's own order (log_id in the column's collation), the cursor a row comparison: each
    // page an index range from the cursor on. In byte order (COLLATE "C") the index could not give the
    // order, and each page sorted every row of the zone-day after the cursor: the first flush of a
    // 1,000,000-entry day ran for over half an hour (docs/MEASUREMENTS.md). A part's rows are sorted when
    // it is merged.
    const next = after ? `AND (timestamp, log_id) > ($6, $7)` : 'AND $6::bigint IS NULL AND $7::text IS NULL';
    const { rows } = await this.pool.query<HistoryValue[]>({
      text: `SELECT ${cols} FROM ${raw}
        WHERE ${zone} = $1 AND log_date = $2 AND timestamp >= $3 AND timestamp < $4 ${next}
          AND ($8::bigint IS NULL OR batch IS NULL OR batch < $8)
        ORDER BY timestamp, log_id LIMIT $5`,
      values: [
        key.zone,
        key.day,
        from,
        to,
        limit,
        after ? Number(after[0]) : null,
        after ? after[1] : null,
        below?.toString() ?? null,
      ],
      rowMode: 'array',
    });
    return historyPage(rows);
  }

  async quarantinePage(
    key: HistoryDayKey,
    after: readonly [number | bigint, number | bigint, string] | null,
    limit: number,
    below?: bigint,
  ): Promise<HistoryPage> {
    const cols = pageColumns(QUARANTINE_SHAPE, jsonArray);
    const next = after
      ? `AND (page, position, raw_hash COLLATE "C") > ($5, $6, $7)`
      : 'AND $5::bigint IS NULL AND $6::bigint IS NULL AND $7::text IS NULL';
    const { rows } = await this.pool.query<HistoryValue[]>({
      text: `SELECT ${cols} FROM quarantined_entries
        WHERE source = $1 AND zone_id = $2 AND log_date = $3 ${next}
          AND ($8::bigint IS NULL OR batch IS NULL OR batch < $8)
        ORDER BY page, position, raw_hash COLLATE "C" LIMIT $4`,
      values: [
        key.source,
        key.zone,
        key.day,
        limit,
        after ? Number(after[0]) : null,
        after ? Number(after[1]) : null,
        after ? after[2] : null,
        below?.toString() ?? null,
      ],
      rowMode: 'array',
    });
    return historyPage(rows);
  }

  async deleteEntries(key: HistoryDayKey, keys: { timestamp: number[]; logId: string[] }): Promise<number> {
    const { table: raw, zoneColumn: zone } = ENTRY_TABLES[key.source];
    const r = await this.pool.query(
      `DELETE FROM ${raw} WHERE ${zone} = $1 AND log_date = $2
         AND (timestamp, log_id) IN (SELECT * FROM unnest($3::bigint[], $4::text[]))`,
      [key.zone, key.day, keys.timestamp, keys.logId],
    );
    return r.rowCount ?? 0;
  }

  async deleteQuarantined(
    key: HistoryDayKey,
    keys: { page: number[]; position: number[]; rawHash: string[] },
  ): Promise<number> {
    const r = await this.pool.query(
      `DELETE FROM quarantined_entries WHERE source = $1 AND zone_id = $2 AND log_date = $3
         AND (page, position, raw_hash) IN (SELECT * FROM unnest($4::bigint[], $5::bigint[], $6::text[]))`,
      [key.source, key.zone, key.day, keys.page, keys.position, keys.rawHash],
    );
    return r.rowCount ?? 0;
  }

  /**
   * Drops the day partitions before `beforeDay` that hold no row (an entry partition holds every zone's
   * rows of a UTC day of timestamps: it goes once every zone's day in it is pruned). Each one is checked
   * empty again under the partition lock and the table's own lock, in the transaction that drops it.
   */
  async reclaim(beforeDay: string): Promise<ReclaimResult> {
    const candidates = (await this.partitions.list()).filter((p) => p.day < beforeDay);
    const dropped: string[] = [];
    for (const p of candidates) {
      const gone = await transaction(this.pool, async (c) => {
        await c.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(this.dropLockTimeoutMs))}`);
        try {
          await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
          await c.query(`LOCK TABLE ${p.parent} IN ACCESS EXCLUSIVE MODE`);
        } catch (err) {
          if (sqlState(err) !== '55P03') throw err;
          throw new EdgelogError(`partition ${p.name} is busy; it is dropped at a later pruning`, {
            retryable: true,
            cause: err,
          });
        }
        const { rows } = await c.query<{ empty: boolean }>(
          `SELECT NOT EXISTS (SELECT 1 FROM ${p.name}) AS empty`,
        );
        if (!rows[0]!.empty) return false;
        await c.query(`DROP TABLE ${p.name}`);
        return true;
      });
      if (gone) dropped.push(p.name);
    }
    if (dropped.length > 0) this.partitions.forget();
    return { fileBytes: null, dropped };
  }
}
