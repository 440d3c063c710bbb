// quarantined_entries: entries the API sent that could not be keyed, kept as received with the reason.
import { createHash } from 'node:crypto';
import type { RejectedEntry } from '../rows.js';
import type { QuarantinedRow } from '../store.js';
import type { Db } from './database.js';
import type { LogSource } from '../ledger-types.js';

export type { QuarantinedRow };

export class QuarantineRepository {
  private readonly insert;
  private readonly select;
  private readonly expire;

  constructor(private readonly db: Db) {
    this.expire = db.prepare('DELETE FROM quarantined_entries WHERE log_date < ?');
    this.insert = db.prepare(`INSERT INTO quarantined_entries
        (source, zone_id, log_date, raw, raw_hash, reason, page, position, first_seen_at, batch)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (source, zone_id, log_date, page, position, raw_hash) DO NOTHING`);
    this.select = db.prepare(`SELECT * FROM quarantined_entries
      WHERE (@source IS NULL OR source = @source) AND (@zone IS NULL OR zone_id = @zone)
        AND (@day IS NULL OR log_date = @day)
      ORDER BY source, zone_id, log_date, id`);
  }

  /**
   * Keeps a page's rejected entries; the same entry fetched again at the same place adds nothing (see
   * migrations/sqlite/0004). `page` is the Shield page of the day, 0 for an origin answer. Returns how many were
   * new. `batch`: the page's write batch (write-batch.ts). Call inside the page's transaction.
   */
  store(
    source: LogSource,
    zone: number,
    day: string,
    page: number,
    rejected: readonly RejectedEntry[],
    now: number,
    batch: number,
  ): number {
    let inserted = 0;
    for (const r of rejected) {
      const hash = createHash('sha256').update(r.raw).digest('hex');
      inserted += this.insert.run(
        source,
        zone,
        day,
        r.raw,
        hash,
        r.reason,
        page,
        r.position,
        now,
        batch,
      ).changes;
    }
    return inserted;
  }

  /** Retention: the entries fetched for a day before `beforeDay`; returns how many went. */
  prune(beforeDay: string): number {
    return this.db.transaction(() => this.expire.run(beforeDay).changes).immediate();
  }

  list(filter: { source?: LogSource; zone?: number; day?: string } = {}): QuarantinedRow[] {
    return this.select.all({
      source: filter.source ?? null,
      zone: filter.zone ?? null,
      day: filter.day ?? null,
    }) as QuarantinedRow[];
  }
}
