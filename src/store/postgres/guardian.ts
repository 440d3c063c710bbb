// api_guardian_snapshots on PostgreSQL (as sqlite/guardian.ts on SQLite).
import type pg from 'pg';
import type { ApiGuardianMetrics } from '../../api/index.js';
import { SNAPSHOT_COLUMNS, snapshotValues } from '../guardian-snapshot.js';
import type { GuardianSnapshotRow, GuardianStore } from '../store.js';

export class PostgresGuardian implements GuardianStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(
    zone: number,
    takenAt: Date,
    metrics: ApiGuardianMetrics | null,
    error: unknown = metrics?.error ?? null,
  ): Promise<number> {
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO api_guardian_snapshots (${SNAPSHOT_COLUMNS.join(', ')})
      VALUES (${SNAPSHOT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
      snapshotValues(zone, takenAt, metrics, error),
    );
    return rows[0]!.id;
  }

  async list(zone: number, from?: string, to?: string): Promise<GuardianSnapshotRow[]> {
    const { rows } = await this.pool.query<GuardianSnapshotRow>(
      `SELECT * FROM api_guardian_snapshots WHERE shield_zone_id = $1
        AND ($2::text IS NULL OR taken_at >= $2) AND ($3::text IS NULL OR taken_at < $3) ORDER BY taken_at`,
      [zone, from ?? null, to ?? null],
    );
    return rows;
  }
}
