// history_days and the reads and deletes of the Parquet history (src/history/) on SQLite: the store side of
// HistoryStore (history-store.ts). Pages are read by key (keyset), each a short statement of its own, so
// that nothing holds the writer's connection or a read snapshot across the compactor's awaits.
import type { Statement } from 'better-sqlite3';
import { statSync } from 'node:fs';
import { entryShape, QUARANTINE_SHAPE, type HistoryTable } from '../history-columns.js';
import type {
  HistoryDayKey,
  HistoryDayRow,
  HistoryPage,
  HistoryRecord,
  HistoryValue,
  ReclaimResult,
  TimeBounds,
} from '../history-store.js';
import { historyPage, pageColumns } from '../history-page.js';
import type { LogSource } from '../ledger-types.js';
import { ENTRY_TABLES } from '../entry-tables.js';
import type { Db } from './database.js';
import type { TermsRepository } from './terms.js';

const sourceOf = (table: HistoryTable): LogSource => (table === 'origin_error_logs' ? 'origin' : 'shield');

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

type Stmt = Statement<unknown[]>;

export class HistoryRepository {
  private readonly select;
  private readonly claimStmt;
  private readonly releaseStmt;
  private readonly recordStmt;
  private readonly prunedStmt;
  private readonly pages = new Map<string, Stmt>();
  private readonly deletes = new Map<LogSource, Stmt>();
  private readonly deleteQuarantine;
  private readonly unpruneStmt;
  private readonly forgetStmt;
  private readonly lostStmt;
  private readonly restores = new Map<HistoryTable, Stmt>();

  /**
   * `terms`: the writers' term counts (deleting entries merges them first; sharing the writers' own lets
   * the counts they hold in memory be written rather than read again from the table).
   */
  constructor(
    private readonly db: Db,
    private readonly terms: Record<LogSource, TermsRepository>,
  ) {
    this.select = db.prepare(`SELECT * FROM history_days
      WHERE (@source IS NULL OR source = @source) AND (@zone IS NULL OR zone_id = @zone)
      ORDER BY source, zone_id, log_date`);
    this.claimStmt =
      db.prepare(`INSERT INTO history_days (source, zone_id, log_date, lease_owner, lease_until)
      VALUES (@source, @zone, @day, @owner, @until)
      ON CONFLICT (source, zone_id, log_date) DO UPDATE
        SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
        WHERE history_days.lease_owner IS NULL OR history_days.lease_until <= @now
           OR history_days.lease_owner = excluded.lease_owner`);
    this.releaseStmt = db.prepare(`UPDATE history_days SET lease_owner = NULL, lease_until = NULL
      WHERE source = ? AND zone_id = ? AND log_date = ? AND lease_owner = ?`);
    this.recordStmt = db.prepare(`UPDATE history_days SET entries = @entries, quarantined = @quarantined,
        bytes = @bytes, checksum = @checksum, quarantine_checksum = @quarantineChecksum,
        ledger_entries = @ledgerEntries, ledger_quarantined = @ledgerQuarantined, compacted_at = @now,
        part = @part, quarantine_part = @quarantinePart
      WHERE source = @source AND zone_id = @zone AND log_date = @day AND lease_owner = @owner`);
    this.forgetStmt = db.prepare('DELETE FROM history_days WHERE log_date < ?');
    this.lostStmt =
      db.prepare(`UPDATE history_days SET lost_entries = coalesce(lost_entries, 0) + ?, lost_at = ?
      WHERE source = ? AND zone_id = ? AND log_date = ? AND lease_owner = ?`);
    this.unpruneStmt = db.prepare(`UPDATE history_days SET pruned_at = NULL
      WHERE source = ? AND zone_id = ? AND log_date = ? AND lease_owner = ?`);
    this.prunedStmt = db.prepare(`UPDATE history_days SET pruned_at = ?
      WHERE source = ? AND zone_id = ? AND log_date = ? AND lease_owner = ? AND compacted_at IS NOT NULL`);
    const jsonArray = (columns: string) => `json_array(${columns})`;
    const q = pageColumns(QUARANTINE_SHAPE, jsonArray);
    const quarantineWhere = '(batch IS NULL OR batch < ?) AND source = ? AND zone_id = ? AND log_date = ?';
    this.pages.set(
      'quarantine-first',
      db.prepare(`SELECT ${q} FROM quarantined_entries WHERE ${quarantineWhere}
        ORDER BY page, position, raw_hash LIMIT ?`),
    );
    this.pages.set(
      'quarantine-next',
      db.prepare(`SELECT ${q} FROM quarantined_entries WHERE ${quarantineWhere}
          AND (page, position, raw_hash) > (?, ?, ?)
        ORDER BY page, position, raw_hash LIMIT ?`),
    );
    for (const source of ['origin', 'shield'] as const) {
      const { table: raw, zoneColumn: zone } = ENTRY_TABLES[source];
      const cols = pageColumns(entryShape(source), jsonArray);
      // Along the unique key (zone, timestamp, log_id): a range of the index, in its order.
      const where = `(batch IS NULL OR batch < ?) AND ${zone} = ? AND log_date = ? AND timestamp < ?`;
      this.pages.set(
        `${source}-first`,
        db.prepare(`SELECT ${cols} FROM ${raw} WHERE ${where} AND timestamp >= ?
          ORDER BY timestamp, log_id LIMIT ?`),
      );
      this.pages.set(
        `${source}-next`,
        db.prepare(`SELECT ${cols} FROM ${raw} WHERE ${where} AND (timestamp, log_id) > (?, ?)
          ORDER BY timestamp, log_id LIMIT ?`),
      );
      this.deletes.set(
        source,
        db.prepare(`DELETE FROM ${raw} WHERE ${zone} = ? AND timestamp = ? AND log_id = ? AND log_date = ?`),
      );
    }
    this.deleteQuarantine = db.prepare(`DELETE FROM quarantined_entries
      WHERE source = ? AND zone_id = ? AND log_date = ? AND page = ? AND position = ? AND raw_hash = ?`);
  }

  restore(key: HistoryDayKey, table: HistoryTable, rows: readonly HistoryValue[][]): number {
    const insert = this.restoreStatement(table);
    return this.db
      .transaction(() => {
        let n = 0;
        for (const row of rows) n += insert.run(...row).changes;
        return n;
      })
      .immediate();
  }

  /** Retention: the record of the days before `beforeDay` (their parts are removed with them). */
  forget(beforeDay: string): void {
    this.forgetStmt.run(beforeDay);
  }

  markLost(key: HistoryDayKey, owner: string, entries: number, now: number): boolean {
    return this.lostStmt.run(entries, now, key.source, key.zone, key.day, owner).changes === 1;
  }

  unprune(key: HistoryDayKey, owner: string): boolean {
    return this.unpruneStmt.run(key.source, key.zone, key.day, owner).changes === 1;
  }

  private restoreStatement(table: HistoryTable): Stmt {
    let stmt = this.restores.get(table);
    if (stmt === undefined) {
      const shape = table === 'quarantined_entries' ? QUARANTINE_SHAPE : entryShape(sourceOf(table));
      const cols = shape.columns.map((c) => c.name);
      stmt = this.db.prepare(`INSERT INTO ${table} (${cols.join(', ')}, batch)
        VALUES (${cols.map(() => '?').join(', ')}, 0) ON CONFLICT (${shape.key.join(', ')}) DO NOTHING`);
      this.restores.set(table, stmt);
    }
    return stmt;
  }

  list(filter: { source?: LogSource; zone?: number } = {}): HistoryDayRow[] {
    return this.select.all({ source: filter.source ?? null, zone: filter.zone ?? null }) as HistoryDayRow[];
  }

  claim(key: HistoryDayKey, owner: string, now: number, leaseMs: number): boolean {
    const args = { source: key.source, zone: key.zone, day: key.day, owner, until: now + leaseMs, now };
    return this.db.transaction(() => this.claimStmt.run(args).changes === 1).immediate();
  }

  release(key: HistoryDayKey, owner: string): void {
    this.releaseStmt.run(key.source, key.zone, key.day, owner);
  }

  record(key: HistoryDayKey, owner: string, rec: HistoryRecord, now: number): boolean {
    const args = { ...rec, source: key.source, zone: key.zone, day: key.day, owner, now };
    return this.db.transaction(() => this.recordStmt.run(args).changes === 1).immediate();
  }

  markPruned(key: HistoryDayKey, owner: string, now: number): boolean {
    return this.prunedStmt.run(now, key.source, key.zone, key.day, owner).changes === 1;
  }

  entryPage(
    key: HistoryDayKey,
    after: readonly [number | bigint, string] | null,
    limit: number,
    bounds: TimeBounds | null,
    below: bigint = MAX,
  ): HistoryPage {
    const hi = bounds ? BigInt(bounds.toMs) : MAX;
    const base = [below, key.zone, key.day, hi];
    const stmt = this.pages.get(`${key.source}-${after ? 'next' : 'first'}`)!;
    const args = after
      ? [...base, BigInt(after[0]), after[1], limit]
      : [...base, bounds ? BigInt(bounds.fromMs) : MIN, limit];
    return historyPage(
      stmt
        .raw(true)
        .safeIntegers(true)
        .all(...args) as HistoryValue[][],
    );
  }

  quarantinePage(
    key: HistoryDayKey,
    after: readonly [number | bigint, number | bigint, string] | null,
    limit: number,
    below: bigint = MAX,
  ): HistoryPage {
    const base = [below, key.source, key.zone, key.day];
    const stmt = this.pages.get(`quarantine-${after ? 'next' : 'first'}`)!;
    const args = after ? [...base, BigInt(after[0]), BigInt(after[1]), after[2], limit] : [...base, limit];
    return historyPage(
      stmt
        .raw(true)
        .safeIntegers(true)
        .all(...args) as HistoryValue[][],
    );
  }

  deleteEntries(key: HistoryDayKey, keys: { timestamp: number[]; logId: string[] }): number {
    const del = this.deletes.get(key.source)!;
    const terms = this.terms[key.source];
    // The rows' term counts stay in term_hourly: the rules judge the pruned days from it.
    return this.db
      .transaction(() =>
        terms.deleting(() => {
          let n = 0;
          for (let i = 0; i < keys.timestamp.length; i++)
            n += del.run(key.zone, keys.timestamp[i], keys.logId[i], key.day).changes;
          return n;
        }),
      )
      .immediate();
  }

  deleteQuarantined(
    key: HistoryDayKey,
    keys: { page: number[]; position: number[]; rawHash: string[] },
  ): number {
    return this.db
      .transaction(() => {
        let n = 0;
        for (let i = 0; i < keys.page.length; i++) {
          const args = [key.source, key.zone, key.day, keys.page[i], keys.position[i], keys.rawHash[i]];
          n += this.deleteQuarantine.run(...args).changes;
        }
        return n;
      })
      .immediate();
  }

  /**
   * Incremental auto-vacuum (archives created since migration 0006 have it: database.ts) hands free pages
   * back to the file system; then a checkpoint lets the main file shrink. An older archive keeps its
   * free pages for later rows (its file stops growing) until an offline VACUUM.
   */
  reclaim(maxPages = 25_000): ReclaimResult {
    if (this.db.memory) return { fileBytes: null, dropped: [] };
    // The main file's size once the WAL's pages are in it (a busy reader may hold some back: then the
    // figures are as far as the checkpoint got).
    const size = () => {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      return statSync(this.db.name).size;
    };
    const before = size();
    if (Number(this.db.pragma('auto_vacuum', { simple: true })) !== 2)
      return { fileBytes: { before, after: before }, dropped: [] };
    this.db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`);
    return { fileBytes: { before, after: size() }, dropped: [] };
  }
}
