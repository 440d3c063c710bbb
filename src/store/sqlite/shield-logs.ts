// shield_event_logs and its hourly rollup.
import { shieldBatch, type ShieldBatch, type ShieldRow } from '../rows.js';
import type { Db } from './database.js';
import { storeBatch, type StoreResult } from './batch-insert.js';
import { SHIELD_TABLE } from '../entry-tables.js';
import { entryInsert, entryRows } from './entry-insert.js';
import { WriteBatchRepository } from './write-batch.js';
import { RollupCounter, hourStart } from '../hourly-rollup.js';
import { rollupValue } from '../../values/storable.js';
import { pruneTable } from './origin-logs.js';
import { TermsRepository } from './terms.js';

/** The columns of new rows the rollup and the term counts read (a batch has them, and more). */
type NewShieldColumns = { timestamp: ArrayLike<number> } & Record<
  'ruleId' | 'severity' | 'status' | 'country' | 'asn' | 'method' | 'url',
  ArrayLike<string | null | undefined>
>;

export class ShieldLogsRepository {
  private readonly insert;
  private readonly rollup;
  private readonly newRows;
  /** The term counts of the rows stored (storePage tells it when a page's transaction ends). */
  readonly terms: TermsRepository;

  constructor(
    private readonly db: Db,
    private readonly batches = new WriteBatchRepository(db),
  ) {
    this.terms = new TermsRepository(db, 'shield');
    this.insert = entryInsert(db, SHIELD_TABLE);
    const upsert = `ON CONFLICT (shield_zone_id, hour, rule_id, severity, status) DO UPDATE SET count = count + excluded.count`;
    this.rollup =
      db.prepare(`INSERT INTO shield_hourly (shield_zone_id, hour, rule_id, severity, status, count)
      VALUES (?, ?, ?, ?, ?, ?) ${upsert}`);
    // When only some rows of a page were new: count them from the table (they have the highest rowids).
    this.newRows = db
      .prepare(
        `SELECT timestamp, rule_id, severity, status, country, asn, method, url FROM shield_event_logs WHERE id > ?`,
      )
      .raw(true);
  }

  /**
   * Stores rows idempotently and counts the new ones into shield_hourly; their terms are staged
   * (terms.ts: `terms.committed()` once the transaction commits). Call inside a transaction.
   */
  store(zone: number, day: string, b: ShieldBatch, batch: number): StoreResult {
    return storeBatch(
      b.timestamp,
      b.parseError,
      () => this.insert.run(b.logId.length, entryRows(SHIELD_TABLE, zone, day, b, batch)),
      {
        all: (afterId) => this.count(zone, afterId, b.logId.length, b),
        after: (afterId) => {
          const rows = this.newRows.all(afterId) as Array<[number, ...Array<string | null>]>;
          const column = (k: number) => rows.map((r) => r[k] as string | null);
          this.count(zone, afterId, rows.length, {
            timestamp: rows.map((r) => r[0]),
            ruleId: column(1),
            severity: column(2),
            status: column(3),
            country: column(4),
            asn: column(5),
            method: column(6),
            url: column(7),
          });
        },
      },
    );
  }

  /**
   * Counts `n` new rows (by column, rowids after `afterId`) into the rollup, one upsert per key (the keys
   * as storable.ts makes them), and stages their terms.
   */
  private count(zone: number, afterId: number, n: number, c: NewShieldColumns): void {
    const counter = new RollupCounter<[number, string, string, string]>();
    for (let i = 0; i < n; i++) {
      const parts: [number, string, string, string] = [
        hourStart(c.timestamp[i]!),
        rollupValue(c.ruleId[i] ?? null, '') as string,
        rollupValue(c.severity[i] ?? null, '') as string,
        rollupValue(c.status[i] ?? null, '') as string,
      ];
      counter.add(parts.join('\u0000'), parts);
    }
    for (const { parts, count } of counter.entries()) {
      this.rollup.run(zone, parts[0], parts[1], parts[2], parts[3], count);
    }
    // PLAIN_TERM_FIELDS.shield's order: country, asn, rule_id, severity, method.
    const plain = [c.country, c.asn, c.ruleId, c.severity, c.method];
    this.terms.stage(zone, afterId, { n, timestamp: c.timestamp, url: c.url, plain });
  }

  /** store() for rows as objects (tests, tools). */
  storeRows(zone: number, day: string, rows: readonly ShieldRow[]): StoreResult {
    return this.store(zone, day, shieldBatch(rows), this.batches.next());
  }

  prune(beforeMs: number, batch = 10_000): number {
    const n = pruneTable(
      this.db,
      this.terms,
      'shield_event_logs',
      'shield_zone_id',
      'shield_hourly',
      beforeMs,
      batch,
    );
    this.terms.prune(beforeMs);
    return n;
  }
}
