// quarantined_entries reads on PostgreSQL (as sqlite/quarantine.ts on SQLite); the writes are part of
// a page (page-writer.ts).
import type pg from 'pg';
import type { LogSource } from '../ledger-types.js';
import type { QuarantinedRow, QuarantineStore } from '../store.js';

export class PostgresQuarantine implements QuarantineStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(filter: { source?: LogSource; zone?: number; day?: string } = {}): Promise<QuarantinedRow[]> {
    const { rows } = await this.pool.query<QuarantinedRow>(
      `SELECT * FROM quarantined_entries
       WHERE ($1::text IS NULL OR source = $1) AND ($2::bigint IS NULL OR zone_id = $2)
         AND ($3::text IS NULL OR log_date = $3)
       ORDER BY source, zone_id, log_date, id`,
      [filter.source ?? null, filter.zone ?? null, filter.day ?? null],
    );
    return rows;
  }
}
