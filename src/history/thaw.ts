// Before a pruned zone-day is fetched again (a re-sync, a backfill, a longer lookback), its rows go back
// into the store from its parts: the store's unique key is what tells an entry the API sends again from
// a new one, so without them every entry would be archived twice (reports, rollups, the ledger and the
// alerts would count it twice, and readers would read it from a part and from the store). They are put
// back with batch 0 (store.ts restore): in the history already, never flushed or counted again.
//
// Under the day's history lease, so that no pruning of the day runs meanwhile; a pass that finds the
// lease taken waits for it (LeaseBusyError: its job comes back shortly).
import { join } from 'node:path';
import { ConfigError, LeaseBusyError } from '../errors/index.js';
import type { HistoryDayKey, HistoryStore, HistoryValue } from '../store/history-store.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTableShape } from '../store/history-columns.js';
import { withDayLease, type DayLease, type HistoryDeps } from './compact-day.js';
import { readWatermark } from './flush-marker.js';
import { dayDir, entryTable, type HistoryTable } from './layout.js';
import { readFile } from './part-file.js';
import { liveParts } from './parts.js';
import { readDayDir } from './published-days.js';

/** Rows put back per transaction. */
const BATCH = 2_000;

export type Thawed = { restored: number } | 'not-pruned';

/** Puts a pruned day's rows back in the store (the module comment); nothing for a day not pruned. */
export async function thawDay(deps: HistoryDeps, key: HistoryDayKey): Promise<Thawed> {
  const record = async () =>
    (await deps.store.history.list({ source: key.source, zone: key.zone })).find(
      (r) => r.log_date === key.day,
    );
  const pruned = async () => (await record())?.pruned_at != null;
  // A day the history has no record of was never merged, so no pruning of it can be under way (one
  // needs a merge first, and neither starts while a pass holds the day): no lease to take. Any other
  // day's lease is taken, so that a pruning that started before this pass claimed the day ends first
  // (pruning gives way to a pass that holds the day: prune-day.ts).
  if ((await record()) === undefined) return 'not-pruned';
  const done = await withDayLease(deps, key, async (lease): Promise<Thawed> => {
    if (!(await pruned())) return 'not-pruned';
    const restored = await restoreParts(deps, lease, key);
    await lease.keep(true);
    await deps.store.history.unprune(key, deps.owner);
    return { restored };
  });
  if (done === 'busy')
    throw new LeaseBusyError(
      `the history's work on ${key.source} zone ${key.zone} ${key.day}`,
      deps.now() + deps.leaseMs,
    );
  return done;
}

/**
 * Puts every row of the zone-day's live parts (entries and quarantine) into the store, with batch 0;
 * rows the store holds already are left as they are. Call under the day's lease. Returns the rows put back.
 */
export async function restoreParts(deps: HistoryDeps, lease: DayLease, key: HistoryDayKey): Promise<number> {
  const below = readWatermark(deps.root);
  let restored = 0;
  const tables: Array<[HistoryTable, HistoryTableShape, string]> = [
    [
      entryTable(key.source),
      entryShape(key.source),
      dayDir(deps.root, entryTable(key.source), key.zone, key.day),
    ],
    [
      'quarantined_entries',
      QUARANTINE_SHAPE,
      dayDir(deps.root, 'quarantined_entries', key.zone, key.day, key.source),
    ],
  ];
  for (const [table, shape, dir] of tables) {
    for (const part of liveParts(readDayDir(dir).parts, below)) {
      const cols = shape.columns.map((c) => `"${c.name}"`).join(', ');
      const result = await deps.duck.stream(`SELECT ${cols} FROM ${readFile(join(dir, part.name))}`);
      let rows: HistoryValue[][] = [];
      for (
        let chunk = await result.fetchChunk();
        chunk && chunk.rowCount > 0;
        chunk = await result.fetchChunk()
      ) {
        for (const row of chunk.getRows()) rows.push(row as HistoryValue[]);
        if (rows.length >= BATCH) {
          await lease.keep();
          restored += await deps.store.history.restore(key, table, rows);
          rows = [];
        }
      }
      restored += await deps.store.history.restore(key, table, rows);
    }
  }
  return restored;
}

/**
 * A worker with no history (history.path null) cannot put a pruned day's rows back: it refuses to fetch
 * the day, rather than archive every entry of it a second time.
 */
export async function refusePrunedDay(history: HistoryStore, key: HistoryDayKey): Promise<void> {
  const rec = (await history.list({ source: key.source, zone: key.zone })).find(
    (r) => r.log_date === key.day,
  );
  if (rec?.pruned_at == null) return;
  throw new ConfigError(
    `${key.source} zone ${key.zone} ${key.day} was moved to the history and pruned from the store; ` +
      'this worker has no history (history.path is null), so it cannot fetch the day again without ' +
      'archiving its entries twice: give it the history.path of the workers that keep the history',
  );
}
