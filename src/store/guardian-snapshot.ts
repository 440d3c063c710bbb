// Pure: the row of api_guardian_snapshots an API Guardian answer makes, the same on both stores: each
// counter in its column when it fits (storable.ts), all six as sent in `counters`, the 28-day overview
// and the inline error as JSON.
import type { ApiGuardianMetrics } from '../api/index.js';
import { GUARDIAN_COUNTER_COLUMNS } from '../values/guardian-counters.js';
import { guardianCounters } from '../values/storable.js';

const COUNTER_COLUMNS = Object.values(GUARDIAN_COUNTER_COLUMNS);

/** The columns a snapshot is inserted with, in the order of snapshotValues. */
export const SNAPSHOT_COLUMNS = [
  'shield_zone_id',
  'taken_at',
  ...COUNTER_COLUMNS,
  'overview',
  'error',
  'counters',
] as const;

/** The values of a snapshot's row, in SNAPSHOT_COLUMNS order (a failed call: its error, no counters). */
export function snapshotValues(
  zone: number,
  takenAt: Date,
  metrics: ApiGuardianMetrics | null,
  error: unknown,
): Array<string | number | null> {
  const d = metrics?.data;
  const overview = d?.overviewPastTwentyEightDays;
  const { columns, counters } = guardianCounters(d);
  return [
    zone,
    takenAt.toISOString(),
    ...COUNTER_COLUMNS.map((c) => columns[c]),
    overview ? JSON.stringify(overview) : null,
    error === null || error === undefined ? null : JSON.stringify(error),
    counters,
  ];
}
