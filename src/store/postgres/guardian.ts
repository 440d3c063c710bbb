// api_guardian_snapshots on PostgreSQL (as guardian.repository.ts on SQLite).
import type pg from 'pg';
import type { ApiGuardianMetrics } from '../../api/index.js';
import type { GuardianSnapshotRow, GuardianStore } from '../store.js';

const int = (v: number | null | undefined): number | null => (typeof v === 'number' ? Math.trunc(v) : null);

export class PostgresGuardian implements GuardianStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(
    zone: number,
    takenAt: Date,
    metrics: ApiGuardianMetrics | null,
    error: unknown = metrics?.error ?? null,
  ): Promise<number> {
    const d = metrics?.data;
    const overview = d?.overviewPastTwentyEightDays;
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO api_guardian_snapshots
        (shield_zone_id, taken_at, total_blocked_requests, total_logged_requests, total_rate_limited,
         total_requests_inspected, total_failed_request_validation, total_failed_authentication_enforcement,
         overview, error)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        zone,
        takenAt.toISOString(),
        int(d?.totalBlockedRequests),
        int(d?.totalLoggedRequests),
        int(d?.totalRateLimited),
        int(d?.totalRequestsInspected),
        int(d?.totalFailedRequestValidation),
        int(d?.totalFailedAuthenticationEnforcement),
        overview ? JSON.stringify(overview) : null,
        error === null || error === undefined ? null : JSON.stringify(error),
      ],
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
