// api_guardian_snapshots: periodic copies of the API Guardian counters.
import type { ApiGuardianMetrics } from '../../api/index.js';
import { SNAPSHOT_COLUMNS, snapshotValues } from '../guardian-snapshot.js';
import type { GuardianSnapshotRow } from '../store.js';
import type { Db } from './database.js';

export type { GuardianSnapshotRow };

export class GuardianRepository {
  private readonly insert;
  private readonly select;

  constructor(db: Db) {
    this.select = db.prepare(`SELECT * FROM api_guardian_snapshots WHERE shield_zone_id = @zone
      AND (@from IS NULL OR taken_at >= @from) AND (@to IS NULL OR taken_at < @to) ORDER BY taken_at`);
    this.insert = db.prepare(`INSERT INTO api_guardian_snapshots (${SNAPSHOT_COLUMNS.join(', ')})
      VALUES (${SNAPSHOT_COLUMNS.map(() => '?').join(', ')})`);
  }

  /** Stores one snapshot (a failed call is stored too, with its error and no counters): guardian-snapshot.ts. */
  add(
    zone: number,
    takenAt: Date,
    metrics: ApiGuardianMetrics | null,
    error: unknown = metrics?.error ?? null,
  ): number {
    const result = this.insert.run(...snapshotValues(zone, takenAt, metrics, error));
    return Number(result.lastInsertRowid);
  }

  /** Snapshots of a zone in time order, optionally within [from, to). */
  list(zone: number, from?: string, to?: string): GuardianSnapshotRow[] {
    return this.select.all({ zone, from: from ?? null, to: to ?? null }) as GuardianSnapshotRow[];
  }
}
