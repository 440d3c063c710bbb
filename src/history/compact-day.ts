// Compacts one zone-day of the history: merges its entry parts into one, and its quarantine parts into
// one (merge-parts.ts), each verified against the parts it replaces, then records in history_days what
// the day holds (rows, bytes, key checksums) with the ledger totals it was made from: what pruning checks
// before the day's rows leave the store. The store's rows reach the history by the flush (flush.ts), not
// here. Runs under the day's history lease (the caller's withDayLease), renewed as it goes.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryDayKey, HistoryStore } from '../store/history-store.js';
import type { LedgerStore, StoreDialect } from '../store/store.js';
import { entryShape, QUARANTINE_SHAPE } from '../store/history-columns.js';
import { readWatermark } from './flush-marker.js';
import { dayDir, entryTable, type HistoryTable } from './layout.js';
import { mergeParts } from './merge-parts.js';
import type { FlushDeps } from './flush.js';
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
  /** Where the fault tests stop the process: before a part is renamed into place (a flush's or a merge's), before a delete. */
  hooks?: {
    beforePublish?: (table: HistoryTable) => Promise<void> | void;
    beforeDelete?: (table: HistoryTable) => Promise<void> | void;
    beforeFlushMarker?: () => Promise<void> | void;
  };
}

export interface DayCompacted {
  entries: number;
  quarantined: number;
  bytes: number;
}

/** What the flush needs of a pass's dependencies (flush.ts). */
export function flushDeps(deps: HistoryDeps): FlushDeps {
  return {
    store: deps.store,
    root: deps.root,
    duck: deps.duck,
    owner: deps.owner,
    now: deps.now,
    leaseMs: deps.leaseMs,
    parquet: deps.parquet,
    pageRows: deps.pageRows,
    scratchDir: join(deps.root, SCRATCH_DIR),
    ...(deps.hooks
      ? {
          hooks: {
            ...(deps.hooks.beforePublish ? { beforePublish: deps.hooks.beforePublish } : {}),
            ...(deps.hooks.beforeFlushMarker ? { beforeMarker: deps.hooks.beforeFlushMarker } : {}),
          },
        }
      : {}),
  };
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

/** Past any write batch: "at or above the watermark" with no upper bound. */
const NO_BATCH_ABOVE = 2n ** 62n;

/**
 * Compacts the zone-day (see the module comment); call under its lease. 'busy' when some of the day's
 * rows are still above the flush watermark (a flush in another worker's hands, or not yet run): a merge
 * merges parts only, and would record the day without them. The caller comes back later.
 */
export async function compactDay(deps: HistoryDeps, lease: DayLease): Promise<DayCompacted | 'busy'> {
  const { key } = lease;
  const ledger = await deps.store.ledger.get(key);
  const ledgerEntries = ledger?.archived_entries ?? 0;
  const ledgerQuarantined = ledger?.quarantined_entries ?? 0;
  const below = readWatermark(deps.root);
  const flush = deps.store.history.flush;
  for (const [table, day] of [
    [entryTable(key.source), { zone: key.zone, day: key.day }],
    ['quarantined_entries', { zone: key.zone, day: key.day, source: key.source }],
  ] as const) {
    const above = await flush.page(table, day, below, NO_BATCH_ABOVE, null, 1);
    if (above.rows > 0) return 'busy';
  }
  const [recorded] = (await deps.store.history.list({ source: key.source, zone: key.zone })).filter(
    (r) => r.log_date === key.day,
  );
  const publish = (table: HistoryTable) => async () => {
    await lease.keep(true);
    await deps.hooks?.beforePublish?.(table);
  };
  const merge = (table: HistoryTable, dir: string) =>
    mergeParts(deps.duck, {
      shape: table === 'quarantined_entries' ? QUARANTINE_SHAPE : entryShape(key.source),
      dir,
      below,
      parquet: deps.parquet[table],
      scratchDir: join(deps.root, SCRATCH_DIR),
      beforePublish: publish(table),
      merged:
        table === 'quarantined_entries' ? (recorded?.quarantine_part ?? null) : (recorded?.part ?? null),
      ...(deps.onRows ? { onRows: deps.onRows } : {}),
    });
  const table = entryTable(key.source);
  const entries = await merge(table, dayDir(deps.root, table, key.zone, key.day));
  const quarantined = await merge(
    'quarantined_entries',
    dayDir(deps.root, 'quarantined_entries', key.zone, key.day, key.source),
  );
  const result: DayCompacted = {
    entries: entries.rows,
    quarantined: quarantined.rows,
    bytes: entries.bytes + quarantined.bytes,
  };
  const saved = await deps.store.history.record(
    key,
    deps.owner,
    {
      // '' for a day without entries: null is a record from before parts (plan.ts).
      part: entries.name ?? '',
      quarantinePart: quarantined.name ?? '',
      entries: result.entries,
      quarantined: result.quarantined,
      bytes: result.bytes,
      checksum: entries.checksum,
      quarantineChecksum: quarantined.checksum,
      ledgerEntries,
      ledgerQuarantined,
    },
    deps.now(),
  );
  if (!saved)
    throw new HistoryError(`${key.source} zone ${key.zone} ${key.day}: the day's history lease was lost`);
  return result;
}

/**
 * Rows per store page when flushing or rebuilding a part, per store. SQLite: small enough that a page's
 * values die young in V8's 8 MB semi-space (bin/edgelog.js) instead of being promoted and collected by
 * full GCs: 1,000 instead of 5,000 halved the time in the garbage collector (11.6 s → 5.5 s of CPU profile)
 * on a 1,200,000-entry compaction. PostgreSQL: each page is a round trip and a plan, which cost more than
 * the collector there: on a 1,000,000-entry first flush and merge, 5,000 rows took 36.3 s against 41.7 s
 * for 1,000 (SQLite 26.0 s against 23.1 s; `bench/archive-states.ts --only compaction`, 2026-11-29).
 */
export function compactionPageRows(dialect: StoreDialect): number {
  return dialect === 'postgres' ? 5_000 : 1_000;
}

/** DuckDB's spill directory, inside the history root (no reader's glob matches it). */
export const SCRATCH_DIR = '.scratch';
