// Which table-zone-days the history holds: the `data.parquet` files published under the root (the files
// are the truth of what is readable; a temporary file beside one is never listed). Names that are not a
// partition of the layout are skipped, so nothing found on disk reaches SQL or a path unchecked.
//
// The listing reads a directory per zone-day (600 for 20 zones × 30 days) for every statement, so it is
// synchronous: through the thread pool each read paid a round trip (the 600 took 200–360 ms on the loaded
// 2-core bench machine, against 20–150 ms read in turn).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATA_FILE, dataFile, type HistorySource, type HistoryTable } from './layout.js';
import { timeRangeOfNames, type TimeRange } from './time-range.js';

export interface PublishedDay {
  zone: number;
  /** YYYY-MM-DD. */
  day: string;
  /** The quarantine's days carry their source. */
  source?: HistorySource;
  /** The published file. */
  file: string;
  /** The timestamps it holds, when its directory records them (time-range.ts); else unknown. */
  timestamps?: TimeRange;
}

const ZONE = /^zone=(\d{1,15})$/;
const DAY = /^day=(\d{4}-\d{2}-\d{2})$/;
const SOURCE = /^source=(origin|shield)$/;

/** Pure: the zone of a `zone=<id>` directory name, or null. */
export function zoneOfDir(name: string): number | null {
  const m = ZONE.exec(name);
  return m ? Number(m[1]) : null;
}

/** Pure: the day of a `day=<YYYY-MM-DD>` directory name, or null. */
export function dayOfDir(name: string): string | null {
  return DAY.exec(name)?.[1] ?? null;
}

/** Pure: the source of a `source=<s>` directory name, or null. */
export function sourceOfDir(name: string): HistorySource | null {
  return (SOURCE.exec(name)?.[1] as HistorySource | undefined) ?? null;
}

function dirNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * What a zone-day's directory holds: whether data.parquet is a file, and the union of its timestamp
 * markers. One listing, where a stat of the file alone would cost as much.
 */
function dayContents(dir: string): { published: boolean; timestamps: TimeRange | null } {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { published: false, timestamps: null };
    throw err;
  }
  const data = entries.find((e) => e.name === DATA_FILE);
  const published =
    data !== undefined && (data.isFile() || (data.isSymbolicLink() && isFile(join(dir, DATA_FILE))));
  return { published, timestamps: published ? timeRangeOfNames(entries.map((e) => e.name)) : null };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Every published zone-day of `table` under `root`, sorted by source, zone and day. The zone-days of
 * `known` (an earlier listing) are taken as they were, their directories not read again: a listing that
 * only looks for days published since reads the zone directories alone.
 */
export function publishedDays(
  root: string,
  table: HistoryTable,
  known: readonly PublishedDay[] = [],
): Promise<PublishedDay[]> {
  try {
    return Promise.resolve(listDays(root, table, new Map(known.map((d) => [dayKey(d), d]))));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** Whether `table` has at least one published zone-day under `root` (the listing stops at the first). */
export function hasPublishedDay(root: string, table: HistoryTable): boolean {
  return listDays(root, table, new Map(), 1).length > 0;
}

function listDays(
  root: string,
  table: HistoryTable,
  known: Map<string, PublishedDay>,
  limit = Infinity,
): PublishedDay[] {
  const found: PublishedDay[] = [];
  const scanZones = (dir: string, source?: HistorySource) => {
    for (const zoneName of dirNames(dir)) {
      if (found.length >= limit) return;
      const zone = zoneOfDir(zoneName);
      if (zone === null || !Number.isSafeInteger(zone)) continue;
      for (const dayName of dirNames(join(dir, zoneName))) {
        if (found.length >= limit) return;
        const day = dayOfDir(dayName);
        if (day === null) continue;
        const seen = known.get(dayKey({ zone, day, ...(source ? { source } : {}) }));
        if (seen !== undefined) {
          found.push(seen);
          continue;
        }
        const file = dataFile(root, table, zone, day, source);
        const { published, timestamps } = dayContents(dirname(file));
        if (published)
          found.push({
            zone,
            day,
            file,
            ...(source ? { source } : {}),
            ...(timestamps ? { timestamps } : {}),
          });
      }
    }
  };
  const tableDir = join(root, table);
  if (table === 'quarantined_entries') {
    for (const name of dirNames(tableDir)) {
      const source = sourceOfDir(name);
      if (source !== null) scanZones(join(tableDir, name), source);
    }
  } else {
    scanZones(tableDir);
  }
  const key = (d: PublishedDay) => `${d.source ?? ''}/${String(d.zone).padStart(16, '0')}/${d.day}`;
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The key of a zone-day, for sets: `origin/101/2026-11-24` or `101/2026-11-24`. */
export const dayKey = (d: Pick<PublishedDay, 'zone' | 'day' | 'source'>): string =>
  `${d.source === undefined ? '' : `${d.source}/`}${d.zone}/${d.day}`;
