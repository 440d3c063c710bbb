// Retention (database.retentionDays) over the whole archive: an entry fetched for a day before the cutoff
// leaves the history's parts and the store alike, the quarantine with it, and the ledger records that the
// day expired by retention (ingest_ledger.retention_removed_at). The days' directories go first, each
// under its history lease (no merge of it is under way, none starts), all under the flush's lease (no
// flush writes a part of them meanwhile); then the store's rows, rollups and records.
import { rmSync } from 'node:fs';
import { HistoryError } from '../errors/index.js';
import type { PruneResult } from '../store/store.js';
import { HISTORY_TABLES } from '../store/history-columns.js';
import { addDays, dayOf } from '../time/utc-day.js';
import { withDayLease, type HistoryDeps } from './compact-day.js';
import { listDays } from './published-days.js';

export interface Expired extends PruneResult {
  /** Table-zone-day directories removed from the history. */
  directories: number;
  /** Days whose history lease another holder kept: their files go at the next run. */
  busy: number;
}

export type RetentionDeps = Pick<HistoryDeps, 'root' | 'owner' | 'now' | 'leaseMs'> & {
  store: HistoryDeps['store'] & { prune(beforeMs: number, now?: number): Promise<PruneResult> };
};

/** Removes everything fetched for a day before the one starting at `beforeMs` (the module comment). */
export async function expireArchive(deps: RetentionDeps, beforeMs: number): Promise<Expired> {
  const flush = deps.store.history.flush;
  if (!(await flush.claim(deps.owner, deps.now(), deps.leaseMs)))
    throw new HistoryError(
      'retention waits for the history flush under way; it runs again at the next maintenance',
      {
        retryable: true,
      },
    );
  try {
    const lastDay = addDays(dayOf(beforeMs), -1);
    let directories = 0;
    let busy = 0;
    for (const table of HISTORY_TABLES) {
      for (const d of listDays(deps.root, table, { to: lastDay })) {
        const source = d.source ?? (table === 'origin_error_logs' ? 'origin' : 'shield');
        const done = await withDayLease(deps, { source, zone: d.zone, day: d.day }, () => {
          rmSync(d.dir, { recursive: true, force: true });
          return Promise.resolve(true);
        });
        if (done === 'busy') busy++;
        else directories++;
      }
    }
    const pruned = await deps.store.prune(beforeMs, deps.now());
    return { ...pruned, directories, busy };
  } finally {
    await flush.release(deps.owner);
  }
}
