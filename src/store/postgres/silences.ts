// alert_silences on PostgreSQL (as sqlite/silences.ts on SQLite).
import type pg from 'pg';
import type { SilenceRow, SilencesStore } from '../store.js';

export class PostgresSilences implements SilencesStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(s: SilenceRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO alert_silences (id, matchers, starts_at, ends_at, comment, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [s.id, s.matchers, s.starts_at, s.ends_at, s.comment, s.created_at],
    );
  }

  async list(filter: { activeAt?: number; endedAfter?: number } = {}): Promise<SilenceRow[]> {
    const { rows } = await this.pool.query<SilenceRow>(
      `SELECT id, matchers, starts_at, ends_at, comment, created_at FROM alert_silences
       WHERE ($1::bigint IS NULL OR (starts_at <= $1 AND ends_at > $1))
         AND ($2::bigint IS NULL OR ends_at > $2)
       ORDER BY created_at DESC, id`,
      [filter.activeAt ?? null, filter.endedAfter ?? null],
    );
    return rows;
  }

  async expire(id: string, now: number): Promise<'expired' | 'ended' | 'unknown'> {
    // One statement: the row as it was, and whether this call ended it.
    const { rows } = await this.pool.query<{ ended: boolean; changed: boolean }>(
      `WITH before AS (SELECT id, ends_at <= $2 AS ended FROM alert_silences WHERE id = $1),
            changed AS (UPDATE alert_silences s SET ends_at = greatest(s.starts_at, $2)
                        FROM before b WHERE s.id = b.id AND NOT b.ended RETURNING s.id)
       SELECT b.ended, EXISTS (SELECT 1 FROM changed) AS changed FROM before b`,
      [id, now],
    );
    const row = rows[0];
    if (!row) return 'unknown';
    return row.changed ? 'expired' : 'ended';
  }
}
