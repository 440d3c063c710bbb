// api_guardian_snapshots: periodic copies of the API Guardian counters.
import type { ApiGuardianMetrics } from '../../api/index.js';
import type { GuardianSnapshotRow } from '../store.js';
import type { Db } from './database.js';

export type { GuardianSnapshotRow };

const int = (v: number | null | undefined): number | null => (typeof v === 'number' ? Math.trunc(v) : null);

export class GuardianRepository {
  private readonly insert;
  private readonly select;

  constructor(db: Db) {
    this.select = db.prepare(`SELECT * FROM api_guardian_snapshots WHERE shield_zone_id = @zone
      AND (@from IS NULL OR taken_at >= @from) AND (@to IS NULL OR taken_at < @to) ORDER BY taken_at`);
    this.insert = db.prepare(`INSERT INTO api_guardian_snapshots
      (shield_zone_id, taken_at, total_blocked_requests, total_logged_requests, total_rate_limited,
       total_requests_inspected, total_failed_request_validation, total_failed_authentication_enforcement,
       overview, error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Stores one snapshot (a failed call is stored too, with its error and no counters). */
  add(
    zone: number,
    takenAt: Date,
    metrics: ApiGuardianMetrics | null,
    error: unknown = metrics?.error ?? null,
  ): number {
    const d = metrics?.data;
    const overview = d?.overviewPastTwentyEightDays;
    const result = this.insert.run(
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
    );
    return Number(result.lastInsertRowid);
  }

  /** Snapshots of a zone in time order, optionally within [from, to). */
  list(zone: number, from?: string, to?: string): GuardianSnapshotRow[] {
    return this.select.all({ zone, from: from ?? null, to: to ?? null }) as GuardianSnapshotRow[];
  }
}
