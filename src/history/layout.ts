// Where the Parquet history keeps each table's rows: one directory per table, partitioned Hive-style by
// zone and UTC day, holding that table-zone-day's parts (parts.ts; DATA_FILE is the one file an earlier
// edgelog kept per day, converted at the first flush). A part is written in a private temporary
// directory beside it and renamed into place, so a reader sees it whole or not at all; readers match
// part names only, so a temporary file is never read as data.
import { isDayText } from '../time/utc-day.js';
import { join } from 'node:path';

import type { HistorySource, HistoryTable } from '../store/history-columns.js';

export { HISTORY_TABLES, type HistorySource, type HistoryTable } from '../store/history-columns.js';

export const DATA_FILE = 'data.parquet';
const TEMP_PREFIX = `${DATA_FILE}.tmp-`;

export class HistoryLayoutError extends Error {
  override name = 'HistoryLayoutError';
}

/** The zone id and day go into a path: only a positive integer and a YYYY-MM-DD day are accepted. */
function checked(zone: number, day: string): void {
  if (!Number.isSafeInteger(zone) || zone < 0) throw new HistoryLayoutError(`not a zone id: ${zone}`);
  if (!isDayText(day)) throw new HistoryLayoutError(`not a YYYY-MM-DD day: ${JSON.stringify(day)}`);
}

/** The table an entry source's rows live in. */
export const entryTable = (source: HistorySource): HistoryTable =>
  source === 'origin' ? 'origin_error_logs' : 'shield_event_logs';

/**
 * The directory of one table-zone-day. The quarantine holds both sources, whose zone ids may collide, so
 * its directories carry the source too: quarantined_entries/source=shield/zone=201/day=2026-11-24.
 */
export function dayDir(
  root: string,
  table: HistoryTable,
  zone: number,
  day: string,
  source?: HistorySource,
): string {
  checked(zone, day);
  if (table === 'quarantined_entries') {
    if (source === undefined) throw new HistoryLayoutError('the quarantine directory needs a source');
    return join(root, table, `source=${source}`, `zone=${zone}`, `day=${day}`);
  }
  return join(root, table, `zone=${zone}`, `day=${day}`);
}

/** The published file of one table-zone-day. */
export const dataFile = (...args: Parameters<typeof dayDir>): string => join(dayDir(...args), DATA_FILE);

/** A temporary name in a day directory, unique to this writer (`token`: e.g. its pid; mkdtemp adds the rest). */
export const tempFile = (dir: string, token: string): string => join(dir, `${TEMP_PREFIX}${token}`);

export const isTempFile = (name: string): boolean => name.startsWith(TEMP_PREFIX);

/** A glob over every published file of a table, for read_parquet(…, hive_partitioning = true). */
export function tableGlob(root: string, table: HistoryTable): string {
  const levels = table === 'quarantined_entries' ? ['*', '*', '*'] : ['*', '*'];
  return join(root, table, ...levels, DATA_FILE);
}
