// Compacts one zone-day into the history: its entry file and its quarantine file, each verified against
// the store and published (day-file.ts), then recorded in history_days with the ledger totals they were
// made from. Runs under the day's history lease (the caller's withDayLease), renewed as it goes.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryDayKey, HistoryPage, HistoryStore, TimeBounds } from '../store/history-store.js';
import type { LedgerStore } from '../store/store.js';
import { DAY_MS, dayEndMs, dayStartMs, type Day } from '../time/utc-day.js';
import {
  entryShape,
  ORIGIN_SHAPE,
  QUARANTINE_SHAPE,
  SHIELD_SHAPE,
  type HistoryTableShape,
} from '../store/history-columns.js';
import { publishDayFile, type PublishedFile } from './day-file.js';
import { dayDir, entryTable, type HistoryTable } from './layout.js';
import type { HistoryParquetOptions } from './parquet-options.js';

export interface HistoryDeps {
  store: { history: HistoryStore; ledger: Pick<LedgerStore, 'get' | 'list'> };
  /** The history directory (config/history-path.ts). */
  root: string;
  duck: DuckDBConnection;
  /** Who holds the leases (a job id, or the command's run id). */
  owner: string;
  now: () => number;
  /** The history lease of a day; renewed each third of it. */
  leaseMs: number;
  /** Each table's Parquet options (parquet-options.ts). */
  parquet: HistoryParquetOptions;
  /** Rows per page read from the store. */
  pageRows: number;
  /** Rows appended so far, for progress. */
  onRows?: (n: number) => void;
  /** Where the fault tests stop the process: right before a file is renamed into place, and before a delete. */
  hooks?: {
    beforePublish?: (table: HistoryTable) => Promise<void> | void;
    beforeDelete?: (table: HistoryTable) => Promise<void> | void;
  };
}

export interface DayCompacted {
  entries: number;
  quarantined: number;
  /** Rows carried over from a replaced file whose store rows had been pruned. */
  kept: number;
  bytes: number;
}

/** Keeps the day's history lease: renews it when a third of it has passed; throws once it is lost. */
export class DayLease {
  private renewedAt: number;

  constructor(
    private readonly deps: Pick<HistoryDeps, 'store' | 'owner' | 'now' | 'leaseMs'>,
    readonly key: HistoryDayKey,
  ) {
    this.renewedAt = deps.now();
  }

  async keep(force = false): Promise<void> {
    const now = this.deps.now();
    if (!force && now - this.renewedAt < this.deps.leaseMs / 3) return;
    const held = await this.deps.store.history.claim(this.key, this.deps.owner, now, this.deps.leaseMs);
    if (!held) {
      throw new HistoryError(
        `${this.key.source} zone ${this.key.zone} ${this.key.day}: another worker took the day's history lease`,
      );
    }
    this.renewedAt = now;
  }
}

/**
 * Runs `work` holding the day's history lease; 'busy' when another worker holds it. The lease is
 * released afterwards, whatever happens.
 */
export async function withDayLease<T>(
  deps: Pick<HistoryDeps, 'store' | 'owner' | 'now' | 'leaseMs'>,
  key: HistoryDayKey,
  work: (lease: DayLease) => Promise<T>,
): Promise<T | 'busy'> {
  if (!(await deps.store.history.claim(key, deps.owner, deps.now(), deps.leaseMs))) return 'busy';
  try {
    return await work(new DayLease(deps, key));
  } finally {
    await deps.store.history.release(key, deps.owner);
  }
}

/** Compacts the zone-day (see the module comment); call under its lease. */
export async function compactDay(deps: HistoryDeps, lease: DayLease): Promise<DayCompacted> {
  const { key } = lease;
  const ledger = await deps.store.ledger.get(key);
  const ledgerEntries = ledger?.archived_entries ?? 0;
  const ledgerQuarantined = ledger?.quarantined_entries ?? 0;
  const publish = (table: HistoryTable) => async () => {
    await lease.keep(true);
    await deps.hooks?.beforePublish?.(table);
  };
  const table = entryTable(key.source);
  let unsorted = false;
  const entries = await publishDayFile(deps.duck, {
    shape: entryShape(key.source),
    dir: dayDir(deps.root, table, key.zone, key.day),
    pages: entryPages(deps, lease, ledgerEntries, () => (unsorted = true)),
    parquet: deps.parquet[table],
    scratchDir: join(deps.root, SCRATCH_DIR),
    beforePublish: publish(table),
    unsorted: () => unsorted,
    ...(deps.onRows ? { onRows: deps.onRows } : {}),
  });
  const quarantined = await publishDayFile(deps.duck, {
    shape: QUARANTINE_SHAPE,
    dir: dayDir(deps.root, 'quarantined_entries', key.zone, key.day, key.source),
    pages: quarantinePages(deps, lease),
    parquet: deps.parquet.quarantined_entries,
    scratchDir: join(deps.root, SCRATCH_DIR),
    beforePublish: publish('quarantined_entries'),
  });
  const files = [entries, quarantined].filter((f): f is PublishedFile => f !== null);
  const result: DayCompacted = {
    entries: entries?.rows ?? 0,
    quarantined: quarantined?.rows ?? 0,
    kept: files.reduce((n, f) => n + f.kept, 0),
    bytes: files.reduce((n, f) => n + f.bytes, 0),
  };
  const recorded = await deps.store.history.record(
    key,
    deps.owner,
    {
      entries: result.entries,
      quarantined: result.quarantined,
      bytes: result.bytes,
      checksum: entries?.checksum ?? EMPTY,
      quarantineChecksum: quarantined?.checksum ?? EMPTY,
      ledgerEntries,
      ledgerQuarantined,
    },
    deps.now(),
  );
  if (!recorded)
    throw new HistoryError(`${key.source} zone ${key.zone} ${key.day}: the day's history lease was lost`);
  return result;
}

/**
 * Rows per store page when compacting. Small enough that a page's values die young in V8's 8 MB
 * semi-space (bin/edgelog.js) instead of being promoted and collected by full GCs: 1,000 instead of
 * 5,000 halved the time in the garbage collector (11.6 s → 5.5 s of CPU profile) on a 1,200,000-entry
 * compaction; a keyset seek per page costs little beside it.
 */
export const COMPACTION_PAGE_ROWS = 1_000;

/** DuckDB's spill directory, inside the history root (no reader's glob matches it). */
export const SCRATCH_DIR = '.scratch';

// Where the keyset's columns sit in a page's keys (history-store.ts HistoryPage: the shape's key columns).
const at = (shape: HistoryTableShape, name: string) => shape.key.indexOf(name);
const ENTRY_AT = { timestamp: at(ORIGIN_SHAPE, 'timestamp'), logId: at(ORIGIN_SHAPE, 'log_id') };
if (at(SHIELD_SHAPE, 'timestamp') !== ENTRY_AT.timestamp || at(SHIELD_SHAPE, 'log_id') !== ENTRY_AT.logId)
  throw new Error('the entry files differ in where timestamp and log_id are in their key (columns.ts)');
const QUARANTINE_AT = {
  page: at(QUARANTINE_SHAPE, 'page'),
  position: at(QUARANTINE_SHAPE, 'position'),
  rawHash: at(QUARANTINE_SHAPE, 'raw_hash'),
};
if ([...Object.values(ENTRY_AT), ...Object.values(QUARANTINE_AT)].some((i) => i < 0))
  throw new Error("a keyset column is not in its file's key (history-columns.ts)");

/** The checksum of no rows (checksum.ts). */
export const EMPTY = '0:0000000000000000';

/**
 * The zone-day's entries page by page. They are looked for within a day either side of the day first
 * (where a day's timestamps are): a range of the store's key index. When that finds fewer rows than the
 * ledger says the day archived, the rest of the zone's timestamps are read too (out of order: `unordered`).
 */
async function* entryPages(
  deps: HistoryDeps,
  lease: DayLease,
  expected: number,
  unordered: () => void,
): AsyncGenerator<HistoryPage> {
  const day = lease.key.day as Day;
  const near: TimeBounds = { fromMs: dayStartMs(day) - DAY_MS, toMs: dayEndMs(day) + DAY_MS };
  let found = 0;
  for await (const page of keyset(deps, lease, near)) {
    found += page.keys.length;
    yield page;
  }
  if (found >= expected) return;
  const ranges: TimeBounds[] = [
    { fromMs: Number.MIN_SAFE_INTEGER, toMs: near.fromMs },
    { fromMs: near.toMs, toMs: Number.MAX_SAFE_INTEGER },
  ];
  for (const bounds of ranges) {
    for await (const page of keyset(deps, lease, bounds)) {
      unordered();
      yield page;
    }
  }
}

async function* keyset(deps: HistoryDeps, lease: DayLease, bounds: TimeBounds): AsyncGenerator<HistoryPage> {
  let after: [number | bigint, string] | null = null;
  for (;;) {
    await lease.keep();
    const page = await deps.store.history.entryPage(lease.key, after, deps.pageRows, bounds);
    if (page.keys.length === 0) return;
    yield page;
    if (page.keys.length < deps.pageRows) return;
    const last = page.keys[page.keys.length - 1]!;
    after = [last[ENTRY_AT.timestamp] as number | bigint, last[ENTRY_AT.logId] as string];
  }
}

async function* quarantinePages(deps: HistoryDeps, lease: DayLease): AsyncGenerator<HistoryPage> {
  let after: [number | bigint, number | bigint, string] | null = null;
  for (;;) {
    await lease.keep();
    const page = await deps.store.history.quarantinePage(lease.key, after, deps.pageRows);
    if (page.keys.length === 0) return;
    yield page;
    if (page.keys.length < deps.pageRows) return;
    const last = page.keys[page.keys.length - 1]!;
    after = [
      last[QUARANTINE_AT.page] as number | bigint,
      last[QUARANTINE_AT.position] as number | bigint,
      last[QUARANTINE_AT.rawHash] as string,
    ];
  }
}
