// Removes a compacted zone-day's rows from the store: only rows whose keys its parts hold, read from the
// parts themselves, in bounded batches (each its own short transaction). The parts are verified again
// right before (their keys' checksum must still be the one the merge recorded), so no row leaves the
// store that the history does not hold. Readers never miss a row for it: they read the store's rows
// above the flush watermark only, and every part's rows are below it. The ledger and the hourly rollups
// stay: reports and alerts are unchanged.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryDayRow } from '../store/history-store.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTableShape } from '../store/history-columns.js';
import { combineChecksums } from './checksum.js';
import type { DayLease, HistoryDeps } from './compact-day.js';
import { readWatermark } from './flush-marker.js';
import { checksumOf, readFile } from './part-file.js';
import { dayDir, entryTable } from './layout.js';
import { liveParts } from './parts.js';
import { readDayDir } from './published-days.js';

export interface DayPruned {
  entries: number;
  quarantined: number;
}

/** Keys deleted per transaction. */
const BATCH = 5_000;

/**
 * Prunes the zone-day recorded in `row`; call under its lease. 'fetching' when a pass holds the day in
 * the ledger: it may be storing what the API sends again, which must meet the rows it would delete
 * (thaw.ts takes this lease before such a pass stores anything).
 */
export async function pruneDay(
  deps: HistoryDeps,
  lease: DayLease,
  row: HistoryDayRow,
): Promise<DayPruned | 'fetching'> {
  const { key } = lease;
  const ledger = await deps.store.ledger.get(key);
  if (ledger?.lease_owner != null && ledger.lease_until !== null && ledger.lease_until > deps.now())
    return 'fetching';
  const below = readWatermark(deps.root);
  const live = (dir: string) => liveParts(readDayDir(dir).parts, below).map((p) => join(dir, p.name));
  const entryFiles = live(dayDir(deps.root, entryTable(key.source), key.zone, key.day));
  const quarantineFiles = live(dayDir(deps.root, 'quarantined_entries', key.zone, key.day, key.source));
  const shape = entryShape(key.source);
  await verify(deps.duck, shape, entryFiles, row.checksum);
  await verify(deps.duck, QUARANTINE_SHAPE, quarantineFiles, row.quarantine_checksum);
  let entries = 0;
  let quarantined = 0;
  for (const entryFile of entryFiles) {
    await deps.hooks?.beforeDelete?.(shape.table);
    await batches(deps.duck, entryFile, ['timestamp', 'log_id'], async (cols) => {
      await lease.keep();
      entries += await deps.store.history.deleteEntries(key, {
        timestamp: cols[0]!.map(Number),
        logId: cols[1] as string[],
      });
    });
  }
  for (const quarantineFile of quarantineFiles) {
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

/** The parts' keys must be the ones the merge recorded (checksum.ts), or nothing is deleted. */
async function verify(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  files: readonly string[],
  recorded: string | null,
): Promise<void> {
  const found = combineChecksums(await Promise.all(files.map((f) => checksumOf(duck, shape, f))));
  if (found !== (recorded ?? combineChecksums([]))) {
    throw new HistoryError(
      `${shape.table} ${files.join(', ') || '(no part)'} no longer match what the merge recorded ` +
        `(${found}, recorded ${recorded}): the day's rows stay in the store; \`edgelog compact --verify\` ` +
        'checks the history and writes such a day again from the store',
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
