// The flush: the store's rows of the write batches [F, H) into the history's parts, one per table-zone-day
// (parts.ts), then the watermark moved to H (flush-marker.ts). F is the watermark, H the store's horizon
// (every batch below it has committed). Readers read the parts below the watermark and the store's rows
// at or above it, so a row is read from exactly one place before, during and after a flush; what
// `query` costs follows what it selects, not how much is stored but not yet merged (Loki's chunks,
// ClickHouse's parts).
//
// One flush at a time, on any host (the store's history_flush lease). A flush killed before its marker
// leaves parts above the watermark, which readers ignore and the next flush covers (its range starts at
// the same F and ends at a horizon at least as high) and removes.
//
// The first flush (watermark 0) converts an archive from before parts: every row of every zone-day (those
// stored before batches, and any stored since, below H) and every legacy data.parquet (rows pruned from
// the store) go into one part [0, H) per zone-day, each row once; then the legacy files go.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { FlushDay, FlushPage, HistoryPage, HistoryStore, TimeBounds } from '../store/history-store.js';
import {
  HISTORY_TABLES,
  entryShape,
  QUARANTINE_SHAPE,
  type HistoryTableShape,
} from '../store/history-columns.js';
import { DAY_MS, dayEndMs, dayStartMs, type Day } from '../time/utc-day.js';
import { readWatermark, writeWatermark } from './flush-marker.js';
import { DATA_FILE, dayDir, type HistoryTable } from './layout.js';
import type { HistoryParquetOptions } from './parquet-options.js';
import { partsAbove } from './parts.js';
import { listDays, readDayDir } from './published-days.js';
import { writePart, type StepTimer } from './part-file.js';
import { removeTimeRangesBut } from './time-range.js';

export interface FlushDeps {
  store: { history: Pick<HistoryStore, 'flush' | 'entryPage' | 'quarantinePage'> };
  root: string;
  duck: DuckDBConnection;
  owner: string;
  now: () => number;
  /** The flush's lease; renewed each third of it. */
  leaseMs: number;
  parquet: HistoryParquetOptions;
  /** Rows per page read from the store. */
  pageRows: number;
  /** Where DuckDB spills (made private if missing). */
  scratchDir?: string;
  /** Told the milliseconds each step of writing a part took (bench/flush-cost.ts). @defaultValue none */
  onStep?: StepTimer;
  /** Where the fault tests stop the process: before each part is published, and before the marker. */
  hooks?: {
    beforePublish?: (table: HistoryTable) => Promise<void> | void;
    beforeMarker?: () => Promise<void> | void;
  };
}

export interface FlushResult {
  outcome: 'flushed' | 'nothing' | 'busy';
  /** The watermark now. */
  below: bigint;
  parts: number;
  rows: number;
  /** Legacy data.parquet files converted (the first flush). */
  converted: number;
}

/** Flushes what the store holds above the watermark (see the module comment). */
export async function flushHistory(deps: FlushDeps): Promise<FlushResult> {
  const flush = deps.store.history.flush;
  const from = readWatermark(deps.root);
  const none = (outcome: FlushResult['outcome']): FlushResult => ({
    outcome,
    below: from,
    parts: 0,
    rows: 0,
    converted: 0,
  });
  if (!(await flush.claim(deps.owner, deps.now(), deps.leaseMs))) return none('busy');
  try {
    const lease = new FlushLease(deps);
    // Read under the lease: another flusher may have moved it just before.
    const below = readWatermark(deps.root);
    const horizon = await flush.horizon();
    if (below > 0n && horizon <= below) return { ...none('nothing'), below };
    const result: FlushResult = { outcome: 'flushed', below: horizon, parts: 0, rows: 0, converted: 0 };
    const legacy: string[] = [];
    for (const table of HISTORY_TABLES) {
      const shape = table === 'quarantined_entries' ? QUARANTINE_SHAPE : entryShape(sourceOf(table));
      for (const day of await flushDays(deps, table, below, horizon)) {
        await lease.keep();
        const dir = dayDir(deps.root, table, day.zone, day.day, day.source);
        const { parts, legacy: hasLegacy } = readDayDir(dir);
        // A flush killed before its marker wrote these; this one covers them.
        for (const p of partsAbove(parts, below)) rmSync(join(dir, p.name), { force: true });
        const old = below === 0n && hasLegacy ? join(dir, DATA_FILE) : null;
        const written = await writePart(deps.duck, {
          shape,
          dir,
          lo: below,
          hi: horizon,
          pages:
            below === 0n
              ? allPages(deps, lease, table, day, horizon)
              : batchPages(deps, lease, table, day, below, horizon),
          ...(old === null ? {} : { files: [old], unlessStored: old }),
          parquet: deps.parquet[table],
          ...(deps.scratchDir ? { scratchDir: deps.scratchDir } : {}),
          ...(deps.onStep ? { onStep: deps.onStep } : {}),
          beforePublish: async () => {
            await lease.keep(true);
            await deps.hooks?.beforePublish?.(table);
          },
        });
        if (old !== null) legacy.push(dir);
        if (written === null) continue;
        result.parts++;
        result.rows += written.rows;
      }
    }
    await lease.keep(true);
    await deps.hooks?.beforeMarker?.();
    writeWatermark(deps.root, horizon);
    await flush.record(deps.owner, horizon, deps.now());
    // The legacy files are in parts now, and readers past the marker no longer read them.
    for (const dir of legacy) {
      rmSync(join(dir, DATA_FILE), { force: true });
      removeTimeRangesBut(dir, null);
    }
    result.converted = legacy.length;
    return result;
  } finally {
    await flush.release(deps.owner);
  }
}

const sourceOf = (table: HistoryTable) => (table === 'origin_error_logs' ? 'origin' : 'shield');

/** The zone-days to write: those with rows in [below, horizon); the first flush, every one with rows or a legacy file. */
async function flushDays(
  deps: FlushDeps,
  table: HistoryTable,
  below: bigint,
  horizon: bigint,
): Promise<FlushDay[]> {
  const flush = deps.store.history.flush;
  if (below > 0n) return flush.days(table, below, horizon);
  const days: FlushDay[] = await flush.daysBefore(table, horizon);
  const key = (d: FlushDay) => `${d.source ?? ''}/${d.zone}/${d.day}`;
  const seen = new Set(days.map(key));
  for (const d of listDays(deps.root, table)) {
    const day: FlushDay = { zone: d.zone, day: d.day, ...(d.source ? { source: d.source } : {}) };
    if (d.legacy && !seen.has(key(day))) days.push(day);
  }
  return days;
}

/** Keeps the flush's lease: renews it when a third of it has passed; throws once it is lost. */
class FlushLease {
  private renewedAt: number;

  constructor(private readonly deps: FlushDeps) {
    this.renewedAt = deps.now();
  }

  async keep(force = false): Promise<void> {
    const now = this.deps.now();
    if (!force && now - this.renewedAt < this.deps.leaseMs / 3) return;
    if (!(await this.deps.store.history.flush.claim(this.deps.owner, now, this.deps.leaseMs)))
      throw new HistoryError('another worker took the history flush lease');
    this.renewedAt = now;
  }
}

/** A zone-day's rows of the batches [below, horizon), in (batch, id) order. */
async function* batchPages(
  deps: FlushDeps,
  lease: KeptLease,
  table: HistoryTable,
  day: FlushDay,
  below: bigint,
  horizon: bigint,
): AsyncGenerator<FlushPage> {
  let after = null;
  for (;;) {
    await lease.keep();
    const page = await deps.store.history.flush.page(table, day, below, horizon, after, deps.pageRows);
    if (page.last === null) return;
    yield page;
    if (page.rows < deps.pageRows) return;
    after = page.last;
  }
}

/** What keeps a lease while pages are read (the flush's, or a day's). */
export interface KeptLease {
  keep(force?: boolean): Promise<void>;
}

/**
 * Every row of a zone-day below `horizon` or of no batch, along the store's unique key (a day either side
 * of the day first, where its timestamps are; then the rest of the zone's): the first flush's, and what
 * `compact --verify` writes a damaged day's part again from.
 */
export async function* allPages(
  deps: Pick<FlushDeps, 'store' | 'pageRows'>,
  lease: KeptLease,
  table: HistoryTable,
  day: FlushDay,
  horizon: bigint,
): AsyncGenerator<HistoryPage> {
  const history = deps.store.history;
  if (table === 'quarantined_entries') {
    const key = { source: day.source!, zone: day.zone, day: day.day };
    type After = [bigint | number, bigint | number, string];
    let after: After | null = null;
    for (;;) {
      await lease.keep();
      const page = await history.quarantinePage(key, after, deps.pageRows, horizon);
      if (page.keys.length === 0) return;
      yield page;
      if (page.keys.length < deps.pageRows) return;
      const last = page.keys[page.keys.length - 1]!;
      after = keyAt(QUARANTINE_SHAPE, last, ['page', 'position', 'raw_hash']) as After;
    }
  }
  const source = sourceOf(table);
  const key = { source, zone: day.zone, day: day.day } as const;
  const d = day.day as Day;
  const near: TimeBounds = { fromMs: dayStartMs(d) - DAY_MS, toMs: dayEndMs(d) + DAY_MS };
  const ranges: TimeBounds[] = [
    near,
    { fromMs: Number.MIN_SAFE_INTEGER, toMs: near.fromMs },
    { fromMs: near.toMs, toMs: Number.MAX_SAFE_INTEGER },
  ];
  for (const bounds of ranges) {
    type After = [bigint | number, string];
    let after: After | null = null;
    for (;;) {
      await lease.keep();
      const page = await history.entryPage(key, after, deps.pageRows, bounds, horizon);
      if (page.keys.length === 0) break;
      yield page;
      if (page.keys.length < deps.pageRows) break;
      const last = page.keys[page.keys.length - 1]!;
      after = keyAt(entryShape(source), last, ['timestamp', 'log_id']) as After;
    }
  }
}

/** The values of `names` in a page row's key (the shape's key columns). */
function keyAt(shape: HistoryTableShape, key: unknown[], names: readonly string[]): unknown[] {
  return names.map((n) => key[shape.key.indexOf(n)]);
}
