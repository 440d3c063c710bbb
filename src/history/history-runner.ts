// The history's work: one DuckDB (opened at the first flush or compaction, closed with the runner) and one
// flush, compaction or pruning at a time (they share the DuckDB connection); other processes are kept off
// a day by its lease in history_days, and off a flush by the flush lease. The worker runs it in a process
// of its own (history-process.ts); tests also run it in theirs.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LeaseBusyError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { DayKey } from '../store/ledger-types.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ArchiveStore, LedgerStore } from '../store/store.js';
import { flushHistory, type FlushResult } from './flush.js';
import { readWatermark } from './flush-marker.js';
import { HISTORY_TABLES } from '../store/history-columns.js';
import { thawDay, type Thawed } from './thaw.js';
import { expireArchive, type Expired } from './retention.js';
import {
  compactionPageRows,
  compactDay,
  flushDeps,
  SCRATCH_DIR,
  withDayLease,
  type HistoryDeps,
} from './compact-day.js';
import { prunePass, type PassSummary } from './history-pass.js';
import { DEFAULT_PARQUET_OPTIONS } from './parquet-options.js';
import { planCompaction, type PlannedDay } from './plan.js';

export interface HistoryRunnerOptions {
  store: { history: HistoryStore; ledger: Pick<LedgerStore, 'get' | 'list'> } & Pick<
    ArchiveStore,
    'prune' | 'dialect'
  >;
  root: string;
  hotDays: number | null;
  originLookbackDays: number;
  leaseMs: number;
  owner: string;
  now: () => number;
  logger: Logger;
  /** @defaultValue openDuckDb() */
  openDuck?: () => Promise<DuckDBConnection>;
}

/**
 * Rows stored since the last flush that start one (the worker's count: history-process.ts noteStored),
 * and rows above the watermark that make a sync's closing flush due (flushIfDue).
 */
export const FLUSH_ROWS = 50_000;

export interface CompactJobResult {
  outcome: 'compacted' | 'not-settled' | 'busy';
  entries: number;
  quarantined: number;
  bytes: number;
  pruned: PassSummary['pruned'];
}

/** The watermark, and how many rows the store holds at or above it (what readers read from the store). */
export async function rowsAboveWatermark(
  history: Pick<HistoryStore, 'flush'>,
  root: string,
): Promise<{ below: bigint; rows: number }> {
  const below = readWatermark(root);
  let rows = 0;
  for (const table of HISTORY_TABLES) rows += await history.flush.rowsFrom(table, below);
  return { below, rows };
}

export class HistoryRunner {
  private duck: Promise<DuckDBConnection> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** A flush queued behind the work in hand, not started yet (flush()). */
  private waiting: Promise<FlushResult> | undefined;
  private closed = false;

  constructor(private readonly opts: HistoryRunnerOptions) {}

  /** The zone-days to compact now (the sweep enqueues a job for each). */
  async plan(): Promise<PlannedDay[]> {
    const { store, now, originLookbackDays } = this.opts;
    return planCompaction({
      now: now(),
      ledger: await store.ledger.list(),
      history: await store.history.list(),
      originLookbackDays,
    });
  }

  /**
   * Flushes the store's rows above the watermark into parts (flush.ts): after each day job and whenever
   * enough rows were stored since the last flush, so that readers read few rows from the store.
   */
  flush(): Promise<FlushResult> {
    // A flush that has not started yet reads the store's horizon when it starts, so it covers every row
    // stored before this call: a request made meanwhile (day jobs ending together) joins it. One flush
    // per day job measured ~70 ms of the worker's thread each on the latency-bound bench (150 days).
    if (this.waiting) return this.waiting;
    const run: Promise<FlushResult> = this.serially(async () => {
      if (this.waiting === run) this.waiting = undefined;
      const result = await flushHistory(flushDeps(await this.deps()));
      if (result.outcome === 'flushed')
        this.opts.logger.debug({ ...result, below: String(result.below) }, 'history flushed');
      return result;
    });
    this.waiting = run;
    return run;
  }

  /** Retention over the store and the history (retention.ts). */
  expire(beforeMs: number): Promise<Expired> {
    return this.serially(async () =>
      expireArchive({ ...(await this.deps()), store: this.opts.store }, beforeMs),
    );
  }

  /** Puts a pruned day's rows back in the store before it is fetched again (thaw.ts). */
  thaw(key: DayKey): Promise<Thawed> {
    return this.serially(async () => {
      const done = await thawDay(await this.deps(), key);
      if (done !== 'not-pruned')
        this.opts.logger.info({ ...key, ...done }, 'pruned day put back in the store');
      return done;
    });
  }

  /**
   * Compacts one zone-day if the planner still wants it (another worker may have done it since the job
   * was made), then prunes what may be pruned.
   */
  compact(key: DayKey): Promise<CompactJobResult> {
    return this.serially(async () => {
      const deps = await this.deps();
      // The day's rows into parts first: a merge merges parts only.
      await flushHistory(flushDeps(deps));
      const result: CompactJobResult = {
        outcome: 'not-settled',
        entries: 0,
        quarantined: 0,
        bytes: 0,
        pruned: { days: 0, entries: 0, quarantined: 0 },
      };
      const planned = planCompaction({
        now: deps.now(),
        ledger: (await deps.store.ledger.list({ source: key.source, zone: key.zone })).filter(
          (r) => r.log_date === key.day,
        ),
        history: (await deps.store.history.list({ source: key.source, zone: key.zone })).filter(
          (r) => r.log_date === key.day,
        ),
        originLookbackDays: this.opts.originLookbackDays,
      });
      if (planned.length > 0) {
        // 'busy' too when the day's rows wait above the watermark (another worker's flush holds them).
        const done = await withDayLease(deps, key, (lease) => compactDay(deps, lease));
        if (done === 'busy') result.outcome = 'busy';
        else
          Object.assign(result, {
            outcome: 'compacted',
            entries: done.entries,
            quarantined: done.quarantined,
            bytes: done.bytes,
          });
        if (done !== 'busy') this.opts.logger.info({ ...key, ...done }, 'day compacted into history');
      }
      const summary: Pick<PassSummary, 'pruned' | 'pruneBusy' | 'reclaimed' | 'failed'> = {
        pruned: result.pruned,
        pruneBusy: 0,
        reclaimed: null,
        failed: [],
      };
      await prunePass(deps, this.opts, summary);
      for (const f of summary.failed)
        this.opts.logger.error(
          { ...f },
          'history: a day could not be pruned; `edgelog compact --verify` checks it',
        );
      if (summary.pruned.days > 0)
        this.opts.logger.info(
          { pruned: summary.pruned, reclaimed: summary.reclaimed },
          'history days pruned from the store',
        );
      // A day another holder's lease kept from this job (a live worker on it, or one killed meanwhile
      // whose lease has yet to run out): the job comes back shortly (the runtime delays a LeaseBusyError
      // without using an attempt) and finds the day done, or does it. Ending it here would leave the day
      // to the next sweep, a whole schedule.refreshEvery away.
      if (result.outcome === 'busy' || summary.pruneBusy > 0) {
        throw new LeaseBusyError(
          `another worker (the history lease of ${summary.pruneBusy > 0 ? 'a day due for pruning' : `${key.source} zone ${key.zone} ${key.day}`})`,
          deps.now() + this.opts.leaseMs,
        );
      }
      return result;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => {});
    const duck = await this.duck?.catch(() => undefined);
    duck?.closeSync();
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  private async deps(): Promise<HistoryDeps> {
    if (this.closed) throw new Error('the history runner is closed');
    this.duck ??=
      this.opts.openDuck?.() ??
      import('./duckdb.js').then((m) =>
        m.openDuckDb({ ...m.COMPACTION_DUCKDB_OPTIONS, tempDirectory: join(this.opts.root, SCRATCH_DIR) }),
      );
    return {
      store: this.opts.store,
      root: this.opts.root,
      duck: await this.duck,
      owner: this.opts.owner,
      now: this.opts.now,
      leaseMs: this.opts.leaseMs,
      parquet: DEFAULT_PARQUET_OPTIONS,
      pageRows: compactionPageRows(this.opts.store.dialect),
    };
  }
}
