// Which table-zone-days the history holds: the `data.parquet` files published under the root (the files
// are the truth of what is readable; a temporary file beside one is never listed). Names that are not a
// partition of the layout are skipped, so nothing found on disk reaches SQL or a path unchecked.
import { readdir, stat } from 'node:fs/promises';
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

async function dirNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * What a zone-day's directory holds: whether data.parquet is a file, and the union of its timestamp
 * markers. One listing, where a stat of the file alone would cost as much.
 */
async function dayContents(dir: string): Promise<{ published: boolean; timestamps: TimeRange | null }> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { published: false, timestamps: null };
    throw err;
  }
  const data = entries.find((e) => e.name === DATA_FILE);
  const published =
    data !== undefined && (data.isFile() || (data.isSymbolicLink() && (await isFile(join(dir, DATA_FILE)))));
  return { published, timestamps: published ? timeRangeOfNames(entries.map((e) => e.name)) : null };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Every published zone-day of `table` under `root`, sorted by source, zone and day. */
export async function publishedDays(root: string, table: HistoryTable): Promise<PublishedDay[]> {
  const found: PublishedDay[] = [];
  const scanZones = async (dir: string, source?: HistorySource) => {
    for (const zoneName of await dirNames(dir)) {
      const zone = zoneOfDir(zoneName);
      if (zone === null || !Number.isSafeInteger(zone)) continue;
      for (const dayName of await dirNames(join(dir, zoneName))) {
        const day = dayOfDir(dayName);
        if (day === null) continue;
        const file = dataFile(root, table, zone, day, source);
        const { published, timestamps } = await dayContents(dirname(file));
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
    for (const name of await dirNames(tableDir)) {
      const source = sourceOfDir(name);
      if (source !== null) await scanZones(join(tableDir, name), source);
    }
  } else {
    await scanZones(tableDir);
  }
  const key = (d: PublishedDay) => `${d.source ?? ''}/${String(d.zone).padStart(16, '0')}/${d.day}`;
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The key of a zone-day, for sets: `origin/101/2026-11-24` or `101/2026-11-24`. */
export const dayKey = (d: Pick<PublishedDay, 'zone' | 'day' | 'source'>): string =>
  `${d.source === undefined ? '' : `${d.source}/`}${d.zone}/${d.day}`;
