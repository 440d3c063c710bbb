// Removes a compacted zone-day's rows from the store: only rows whose keys its published files hold, read
// from the files themselves, in bounded batches (each its own short transaction). Each file is verified
// again right before (its key checksum must still be the one recorded), so no row leaves the store that
// the history does not hold. The ledger and the hourly rollups stay: reports and alerts are unchanged.
import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryDayRow } from '../store/history-store.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTableShape } from '../store/history-columns.js';
import type { DayLease, HistoryDeps } from './compact-day.js';
import { checksumOf, readFile } from './day-file.js';
import { dataFile, entryTable } from './layout.js';

export interface DayPruned {
  entries: number;
  quarantined: number;
}

/** Keys deleted per transaction. */
const BATCH = 5_000;

/** Prunes the zone-day recorded in `row`; call under its lease. */
export async function pruneDay(deps: HistoryDeps, lease: DayLease, row: HistoryDayRow): Promise<DayPruned> {
  const { key } = lease;
  const entryFile = dataFile(deps.root, entryTable(key.source), key.zone, key.day);
  const quarantineFile = dataFile(deps.root, 'quarantined_entries', key.zone, key.day, key.source);
  const shape = entryShape(key.source);
  if (row.entries) await verify(deps.duck, shape, entryFile, row.checksum);
  if (row.quarantined) await verify(deps.duck, QUARANTINE_SHAPE, quarantineFile, row.quarantine_checksum);
  let entries = 0;
  let quarantined = 0;
  if (row.entries) {
    await deps.hooks?.beforeDelete?.(shape.table);
    await batches(deps.duck, entryFile, ['timestamp', 'log_id'], async (cols) => {
      await lease.keep();
      entries += await deps.store.history.deleteEntries(key, {
        timestamp: cols[0]!.map(Number),
        logId: cols[1] as string[],
      });
    });
  }
  if (row.quarantined) {
    await deps.hooks?.beforeDelete?.('quarantined_entries');
    await batches(deps.duck, quarantineFile, ['page', 'position', 'raw_hash'], async (cols) => {
      await lease.keep();
      quarantined += await deps.store.history.deleteQuarantined(key, {
        page: cols[0]!.map(Number),
        position: cols[1]!.map(Number),
        rawHash: cols[2] as string[],
      });
    });
  }
  await lease.keep(true);
  await deps.store.history.markPruned(key, deps.owner, deps.now());
  return { entries, quarantined };
}

async function verify(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
  recorded: string | null,
): Promise<void> {
  const found = existsSync(file) ? await checksumOf(duck, shape, file) : 'no file';
  if (found !== recorded) {
    throw new HistoryError(
      `${file} no longer matches what was recorded (${found}, recorded ${recorded}): its day's rows stay ` +
        'in the store; `edgelog compact` of that day publishes it again',
    );
  }
}

/** The file's values of `columns`, BATCH rows at a time. */
async function batches(
  duck: DuckDBConnection,
  file: string,
  columns: readonly string[],
  each: (cols: unknown[][]) => Promise<void>,
): Promise<void> {
  const cols = columns.map((c) => `"${c}"`).join(', ');
  const result = await duck.stream(`SELECT ${cols} FROM ${readFile(file)}`);
  let pending: unknown[][] = columns.map(() => []);
  const flush = async () => {
    if (pending[0]!.length === 0) return;
    const full = pending;
    pending = columns.map(() => []);
    await each(full);
  };
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (let c = 0; c < columns.length; c++) pending[c]!.push(...chunk.getColumnValues(c));
    if (pending[0]!.length >= BATCH) await flush();
  }
  await flush();
}
