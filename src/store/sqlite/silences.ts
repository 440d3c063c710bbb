// alert_silences on SQLite (as postgres/silences.ts on PostgreSQL).
import type { SilenceRow } from '../store.js';
import type { Db } from './database.js';

export class SilencesRepository {
  constructor(private readonly db: Db) {}

  add(s: SilenceRow): void {
    this.db
      .prepare(
        `INSERT INTO alert_silences (id, matchers, starts_at, ends_at, comment, created_at)
         VALUES (@id, @matchers, @starts_at, @ends_at, @comment, @created_at)`,
      )
      .run(s);
  }

  list(filter: { activeAt?: number; endedAfter?: number } = {}): SilenceRow[] {
    return this.db
      .prepare(
        `SELECT id, matchers, starts_at, ends_at, comment, created_at FROM alert_silences
         WHERE (@at IS NULL OR (starts_at <= @at AND ends_at > @at))
           AND (@after IS NULL OR ends_at > @after)
         ORDER BY created_at DESC, id`,
      )
      .all({ at: filter.activeAt ?? null, after: filter.endedAfter ?? null }) as SilenceRow[];
  }

  expire(id: string, now: number): 'expired' | 'ended' | 'unknown' {
    return this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT starts_at, ends_at FROM alert_silences WHERE id = ?').get(id) as
          { starts_at: number; ends_at: number } | undefined;
        if (!row) return 'unknown';
        if (row.ends_at <= now) return 'ended';
        this.db.prepare('UPDATE alert_silences SET ends_at = max(starts_at, ?) WHERE id = ?').run(now, id);
        return 'expired';
      })
      .immediate();
  }
}
