// origin_error_logs and its hourly rollup.
import { originBatch, type OriginBatch, type OriginRow } from '../rows.js';
import type { Db } from './database.js';
import { storeBatch, type StoreResult } from './batch-insert.js';
import { ORIGIN_TABLE } from '../entry-tables.js';
import { entryInsert, entryRows } from './entry-insert.js';
import { WriteBatchRepository } from './write-batch.js';
import { RollupCounter, hourStart } from '../hourly-rollup.js';
import { rollupValue } from '../../values/storable.js';
import { TermsRepository } from './terms.js';
import { DAY_MS, dayOf } from '../../time/utc-day.js';

export class OriginLogsRepository {
  private readonly insert;
  private readonly rollup;
  private readonly newRows;
  /** The term counts of the rows stored (storePage tells it when a page's transaction ends). */
  readonly terms: TermsRepository;

  constructor(
    private readonly db: Db,
    private readonly batches = new WriteBatchRepository(db),
  ) {
    this.terms = new TermsRepository(db, 'origin');
    this.insert = entryInsert(db, ORIGIN_TABLE);
    const upsert = `ON CONFLICT (pull_zone_id, hour, status_code, error_code) DO UPDATE SET count = count + excluded.count`;
    this.rollup = db.prepare(`INSERT INTO origin_hourly (pull_zone_id, hour, status_code, error_code, count)
      VALUES (?, ?, ?, ?, ?) ${upsert}`);
    // When only some rows of a batch were new: count them from the table (they have the highest rowids).
    this.newRows = db
      .prepare(`SELECT timestamp, status_code, error_code, request_url FROM origin_error_logs WHERE id > ?`)
      .raw(true);
  }

  /**
   * Stores rows idempotently and counts the new ones into origin_hourly; their terms are staged
   * (terms.ts: `terms.committed()` once the transaction commits). Call inside a transaction.
   */
  store(zone: number, day: string, b: OriginBatch, batch: number): StoreResult {
    return storeBatch(
      b.timestamp,
      b.parseError,
      () => this.insert.run(b.logId.length, entryRows(ORIGIN_TABLE, zone, day, b, batch)),
      {
        all: (afterId) => {
          const n = b.logId.length;
          this.count(zone, n, b.timestamp, b.statusCode, b.errorCode);
          this.terms.stage(zone, afterId, {
            n,
            timestamp: b.timestamp,
            url: b.requestUrl,
            plain: [b.errorCode, b.statusCode],
          });
        },
        after: (afterId) => {
          const rows = this.newRows.all(afterId) as Array<
            [number, number | null, string | null, string | null]
          >;
          const column = <K extends 0 | 1 | 2 | 3>(k: K) => rows.map((r) => r[k]);
          const [timestamp, status, code] = [column(0), column(1), column(2)];
          this.count(zone, rows.length, timestamp, status, code);
          this.terms.stage(zone, afterId, {
            n: rows.length,
            timestamp,
            url: column(3),
            plain: [code, status],
          });
        },
      },
    );
  }

  /**
   * Counts `n` new rows (by column: timestamp, status code, error code) into the rollup, one upsert per
   * key (the keys as storable.ts makes them, as on every store).
   */
  private count(
    zone: number,
    n: number,
    timestamp: ArrayLike<number>,
    statusCode: ArrayLike<number | null | undefined>,
    errorCode: ArrayLike<string | null | undefined>,
  ): void {
    const counter = new RollupCounter<[number, number, string]>();
    for (let i = 0; i < n; i++) {
      const hour = hourStart(timestamp[i]!);
      const status = statusCode[i] ?? 0;
      const code = rollupValue(errorCode[i] ?? null, '') as string;
      counter.add(`${hour}|${status}|${code}`, [hour, status, code]);
    }
    for (const { parts, count } of counter.entries())
      this.rollup.run(zone, parts[0], parts[1], parts[2], count);
  }

  /** store() for rows as objects (tests, tools). */
  storeRows(zone: number, day: string, rows: readonly OriginRow[]): StoreResult {
    return this.store(zone, day, originBatch(rows), this.batches.next());
  }

  /** Deletes entries (and their rollup hours) older than `beforeMs`, in batches; returns rows deleted. */
  prune(beforeMs: number, batch = 10_000): number {
    const n = pruneTable(
      this.db,
      this.terms,
      'origin_error_logs',
      'pull_zone_id',
      'origin_hourly',
      beforeMs,
      batch,
    );
    this.terms.prune(beforeMs);
    return n;
  }
}

/**
 * Shared by both log tables, retention at the day starting `beforeMs`: deletes the rows fetched for an
 * earlier day (log_date), zone by zone along the (zone, timestamp) key (an entry's timestamp is on the
 * day it was fetched for, give or take the API's clock: a day past it bounds the walk), their term
 * counts merged first (`terms`), and the rollup hours before it.
 */
export function pruneTable(
  db: Db,
  terms: TermsRepository,
  table: string,
  zoneColumn: string,
  rollup: string,
  beforeMs: number,
  batch: number,
): number {
  // The rollup knows every zone with entries and is far smaller than the entry table.
  const zones = db
    .prepare(
      `SELECT DISTINCT ${zoneColumn} AS zone FROM ${rollup} UNION SELECT zone_id FROM ingest_ledger WHERE source = ?`,
    )
    .pluck()
    .all(table === 'origin_error_logs' ? 'origin' : 'shield') as number[];
  const del = db.prepare(
    `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table}
      WHERE ${zoneColumn} = ? AND timestamp < ? AND log_date < ? LIMIT ?)`,
  );
  const beforeDay = dayOf(beforeMs);
  const delRollup = db.prepare(`DELETE FROM ${rollup} WHERE ${zoneColumn} = ? AND hour < ?`);
  let total = 0;
  for (const zone of zones) {
    // Short transactions: the worker keeps writing while retention runs.
    for (;;) {
      const n = db
        .transaction(() => terms.deleting(() => del.run(zone, beforeMs + DAY_MS, beforeDay, batch).changes))
        .immediate();
      total += n;
      if (n < batch) break;
    }
    db.transaction(() => delRollup.run(zone, beforeMs - (beforeMs % 3_600_000))).immediate();
  }
  return total;
}
