// What the history holds: the table-zone-day directories under the root and the parts in each
// (parts.ts). Names that are not a partition of the layout or a part are skipped, so nothing found on
// disk reaches SQL or a path unchecked. A directory out of a reader's scope (its zones and days) is not
// read at all.
//
// The listing is synchronous: through the thread pool each directory read paid a round trip (600 of
// them took 200–360 ms on the loaded 2-core bench machine, against 20–150 ms read in turn).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FILE, dayDir, type HistorySource, type HistoryTable } from './layout.js';
import { liveParts, parsePart, PartOverlapError, timeOf, type Part } from './parts.js';
import type { TimeRange } from './time-range.js';

/** One readable file of a zone-day: a live part, or (before the first flush) a legacy data.parquet. */
export interface PublishedDay {
  zone: number;
  /** YYYY-MM-DD. */
  day: string;
  /** The quarantine's days carry their source. */
  source?: HistorySource;
  /** The file. */
  file: string;
  /** The timestamps it holds, when known (a part's name records them); else unknown. */
  timestamps?: TimeRange;
}

/** A table-zone-day directory and what it holds. */
export interface DayParts {
  zone: number;
  day: string;
  source?: HistorySource;
  dir: string;
  /** Every part in it, live or not (parts.ts decides). */
  parts: Part[];
  /** It holds a data.parquet of an edgelog before parts (read until the first flush converts it). */
  legacy: boolean;
}

/** Which zone-days a listing covers: days from–to (inclusive) and, when given, only these zones. */
export interface ZoneDayScope {
  from?: string;
  to?: string;
  zones?: readonly number[];
}

/** Zone ids are safe integers (config.ts): up to 16 digits. */
const ZONE = /^zone=(\d{1,16})$/;
const DAY = /^day=(\d{4}-\d{2}-\d{2})$/;
const SOURCE = /^source=(origin|shield)$/;

/** Pure: the zone of a `zone=<id>` directory name, or null. */
export function zoneOfDir(name: string): number | null {
  const m = ZONE.exec(name);
  if (!m) return null;
  const zone = Number(m[1]);
  return Number.isSafeInteger(zone) ? zone : null;
}

/** Pure: the day of a `day=<YYYY-MM-DD>` directory name, or null. */
export function dayOfDir(name: string): string | null {
  return DAY.exec(name)?.[1] ?? null;
}

/** Pure: the source of a `source=<s>` directory name, or null. */
export function sourceOfDir(name: string): HistorySource | null {
  return (SOURCE.exec(name)?.[1] as HistorySource | undefined) ?? null;
}

/** Pure: whether a zone-day is in the scope. */
export function inScope(scope: ZoneDayScope, d: { zone: number; day: string }): boolean {
  if (scope.from !== undefined && d.day < scope.from) return false;
  if (scope.to !== undefined && d.day > scope.to) return false;
  return scope.zones === undefined || scope.zones.includes(d.zone);
}

function names(dir: string, directories: boolean): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => (directories ? d.isDirectory() : d.isFile() || d.isSymbolicLink()))
      .map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The parts and the legacy file of one table-zone-day directory. */
export function readDayDir(dir: string): Pick<DayParts, 'parts' | 'legacy'> {
  const files = names(dir, false);
  return {
    parts: files.map(parsePart).filter((p): p is Part => p !== null),
    legacy: files.includes(DATA_FILE),
  };
}

/**
 * Every zone-day directory of `table` under `root` in `scope`, with its parts, sorted by source, zone
 * and day.
 */
export function listDays(root: string, table: HistoryTable, scope: ZoneDayScope = {}): DayParts[] {
  const found: DayParts[] = [];
  const scanZones = (dir: string, source?: HistorySource) => {
    for (const zoneName of names(dir, true)) {
      const zone = zoneOfDir(zoneName);
      if (zone === null || (scope.zones !== undefined && !scope.zones.includes(zone))) continue;
      for (const dayName of names(join(dir, zoneName), true)) {
        const day = dayOfDir(dayName);
        if (day === null || !inScope(scope, { zone, day })) continue;
        const path = dayDir(root, table, zone, day, source);
        found.push({ zone, day, ...(source ? { source } : {}), dir: path, ...readDayDir(path) });
      }
    }
  };
  const tableDir = join(root, table);
  if (table === 'quarantined_entries') {
    for (const name of names(tableDir, true)) {
      const source = sourceOfDir(name);
      if (source !== null) scanZones(join(tableDir, name), source);
    }
  } else {
    scanZones(tableDir);
  }
  const key = (d: DayParts) => `${d.source ?? ''}/${String(d.zone).padStart(17, '0')}/${d.day}`;
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * A zone-day whose parts overlap without one covering the other (parts.ts liveParts): which of them holds
 * its rows cannot be told, so none of its files is read, and a statement that can see the day fails.
 */
export interface UnreadableDay {
  zone: number;
  day: string;
  source?: HistorySource;
  /** Why (PartOverlapError's message: the two parts' names). */
  reason: string;
  /** The union of the timestamps its parts below the watermark record; unknown when one records none. */
  timestamps?: TimeRange;
}

/** What a reader reads of a table's zone-days, and the zone-days it cannot read. */
export interface ReadableFiles {
  files: PublishedDay[];
  unreadable: UnreadableDay[];
}

/**
 * Pure: the files a reader reads, given the flush watermark `below`: each zone-day's live parts; before
 * the first flush (`below` 0), the legacy data.parquet files instead, whose zone-days' store rows the
 * reader then leaves out. A zone-day whose parts overlap is `unreadable` rather than failing the others:
 * whether that fails a statement depends on whether the statement can see the day (history-views.ts).
 */
export function readableFiles(days: readonly DayParts[], below: bigint): ReadableFiles {
  const out: ReadableFiles = { files: [], unreadable: [] };
  for (const d of days) {
    const base = { zone: d.zone, day: d.day, ...(d.source ? { source: d.source } : {}) };
    if (below === 0n) {
      if (d.legacy) out.files.push({ ...base, file: join(d.dir, DATA_FILE) });
      continue;
    }
    let live: Part[];
    try {
      live = liveParts(d.parts, below);
    } catch (err) {
      if (!(err instanceof PartOverlapError)) throw err;
      const time = timeOf(d.parts.filter((p) => p.hi <= below));
      out.unreadable.push({ ...base, reason: err.message, ...(time ? { timestamps: time } : {}) });
      continue;
    }
    for (const p of live)
      out.files.push({ ...base, file: join(d.dir, p.name), ...(p.time ? { timestamps: p.time } : {}) });
  }
  return out;
}

/** The key of a zone-day, for sets: `origin/101/2026-11-24` or `101/2026-11-24`. */
export const dayKey = (d: Pick<PublishedDay, 'zone' | 'day' | 'source'>): string =>
  `${d.source === undefined ? '' : `${d.source}/`}${d.zone}/${d.day}`;
