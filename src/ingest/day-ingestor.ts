// Fetches one (source, zone, day) to exhaustion into the archive: page → parse → store + checkpoint in
// one transaction. Killed at any instant, a re-run resumes from the last committed checkpoint, and the
// idempotent inserts make a re-fetched page harmless. Every entry the API sent is archived, or
// quarantined when it cannot be keyed, and counted in the ledger either way.
import {
  EdgelogError,
  HttpStatusError,
  WindowExpiredError,
  coerceError,
  describeError,
} from '../errors/index.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import type { Logger } from '../logger.js';
import { NO_METRICS, type PageMetrics } from '../telemetry/events.js';
import { redactError } from '../redact.js';
import type { OriginBatch } from '../store/rows.js';
import type {
  ArchiveStore,
  Claim,
  DayKey,
  DayState,
  LogSource,
  PageInput,
  PageProgress,
} from '../store/store.js';
import { pageCounts } from '../store/store.js';
import { asStoreError } from '../store/store-error.js';
import type { Day } from '../time/utc-day.js';
import { coveredUntil, finishedState } from './day-state.js';
import { InterruptedError, LeaseBusyError } from '../errors/index.js';
import {
  shieldPages,
  streamOriginDay,
  type FetchClient,
  type OriginQuery,
  type ShieldPageResult,
  type ShieldPagesQuery,
} from './fetch-pages.js';
import { ownerIsGone } from './lease-owner.js';

/** The pages of a Shield pass, in order (fetch-pages.ts, or page-threads.ts off the main thread). */
export type ShieldPageSource = (
  q: ShieldPagesQuery,
  signal?: AbortSignal,
) => AsyncGenerator<ShieldPageResult, void>;

/** An origin day through `store` in batches (fetch-pages.ts, or page-threads.ts off the main thread). */
export type OriginDaySource = (
  q: OriginQuery,
  store: (batch: OriginBatch, first: boolean) => void | Promise<void>,
  restart: () => void | Promise<void>,
  signal?: AbortSignal,
) => Promise<PagingFields>;

export interface DayResult {
  source: LogSource;
  zone: number;
  day: string;
  /** How this pass ended: it reached the end of the day's data (complete or partial), or not. */
  outcome: 'complete' | 'partial' | 'incomplete' | 'expired';
  /** The day's ledger state after this pass (a complete day stays complete, see store/sqlite/ledger.ts). */
  state: DayState;
  /** True when this run continued an interrupted pass from its checkpoint. */
  resumed: boolean;
  /** This pass's figures. */
  pages: number;
  entries: number;
  newEntries: number;
  malformed: number;
  quarantined: number;
  /** Rows the day holds in the archive, over every pass (entries and quarantined). */
  archived: number;
  archivedQuarantined: number;
  /** Why the pass did not complete the day (incomplete, expired), or the error a complete day's re-run met. */
  error?: string;
  /** True when the day was not fetched: a pass that started after the job was made already did it. */
  skipped?: true;
  durationMs: number;
}

export interface DayIngestorDeps {
  client: FetchClient;
  /** Where a pass's Shield pages come from. @defaultValue shieldPages on this thread, with `client` */
  pages?: ShieldPageSource;
  /** Where an origin day's batches come from. @defaultValue streamOriginDay on this thread, with `client` */
  originDays?: OriginDaySource;
  /** The archive: each page is one storePage (rows, rollups, quarantine and checkpoint together). */
  store: ArchiveStore;
  logger: Logger;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Shield pages one pass may take. */
  pageCap: number;
  /** See finishedState. */
  finalizeDelayMs: number;
  /**
   * How long a claim on a day lasts unless renewed. The holder renews it every third of this while it
   * works (also while a request is in flight), so only a holder that stopped loses it. @defaultValue 60 s
   */
  leaseMs?: number;
  /**
   * Origin rows per transaction, as in a Shield page: short synchronous chunks keep BullMQ's lock
   * renewals on time and a page thread's batches small (1,000 measured faster than 5,000, on either
   * thread). @defaultValue 1000
   */
  chunkRows?: number;
  /**
   * Shield pages of this many bytes or more are decoded and stored in parts of `chunkRows` entries, each
   * part in a transaction of its own, so that no page within api.maxResponseBytes is held decoded whole.
   * @defaultValue WHOLE_PAGE_BYTES, 16 MiB
   */
  wholePageBytes?: number;
  /** Tells whether a lease holder is gone. @defaultValue ownerIsGone (lease-owner.ts) */
  abandoned?: (owner: string) => boolean;
  /** Told of each committed page. @defaultValue NO_METRICS */
  metrics?: PageMetrics;
  /**
   * Runs once the day is claimed, before its first page: the history puts a pruned day's rows back in
   * the store (history/thaw.ts), so that what the API sends again is known as archived. @defaultValue none
   */
  beforePass?: (key: DayKey) => Promise<void>;
}

export interface RunOptions {
  /** Who is fetching: a name unique to this run (lease-owner.ts ownerId). */
  owner: string;
  /** Stops the pass between pages (the page in hand is finished first). */
  signal?: AbortSignal | undefined;
  /** Continue an interrupted pass from its checkpoint. @defaultValue true */
  resume?: boolean;
  /** No retry will follow: a retryable failure marks the day failed (its checkpoint kept for the next plan). */
  finalAttempt?: boolean;
}

export { ownerId, ownerIsGone } from './lease-owner.js';

/** What a part of a page with more parts to follow adds to the pass's counts: nothing yet. */
const NO_COUNTS = { entries: 0, malformed: 0, quarantined: 0 };

/** A pass that stopped short of the end: what the API's answer said. */
type Shortfall = { message: string } | null;

export class DayIngestor {
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly chunkRows: number;

  constructor(private readonly deps: DayIngestorDeps) {
    this.now = deps.now ?? Date.now;
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.chunkRows = deps.chunkRows ?? 1000;
  }

  /**
   * Runs one pass. Returns the result for complete, partial, incomplete and expired days. Throws
   * LeaseBusyError when another run holds the day (or took it over), InterruptedError when stopped
   * between pages (checkpoint kept), and the API's or the store's error otherwise: the checkpoint is
   * kept whenever the error was retryable, and a permanent one (or the last attempt) marks the day failed.
   */
  async run(key: DayKey & { day: Day }, opts: RunOptions): Promise<DayResult> {
    const { ledger } = this.deps.store;
    const started = this.now();
    const context = { source: key.source, zone: key.zone, date: key.day };
    let claim: Claim;
    try {
      claim = await ledger.claim(
        key,
        opts.owner,
        started,
        this.leaseMs,
        opts.resume ?? true,
        this.deps.abandoned ?? ownerIsGone,
      );
    } catch (raw) {
      throw asStoreError(coerceError(raw), this.deps.store.location);
    }
    if (claim.kind === 'busy') throw new LeaseBusyError(claim.owner, claim.until, { context });
    const log = this.deps.logger.child(context);
    const passStartedAt = claim.row.pass_started_at ?? started;
    const lease = this.keepLease(key, opts.owner, opts.signal);
    const result = async (outcome: DayResult['outcome'], error?: string): Promise<DayResult> => {
      const row = (await ledger.get(key))!;
      // The key's fields by name: the log context's `date` would repeat the day (and the log line's `date`).
      return {
        source: key.source,
        zone: key.zone,
        day: key.day,
        outcome,
        state: row.state,
        resumed: claim.resumed,
        pages: row.pages,
        entries: row.entries,
        newEntries: row.new_entries,
        malformed: row.malformed,
        quarantined: row.quarantined,
        archived: row.archived_entries,
        archivedQuarantined: row.quarantined_entries,
        ...(error !== undefined ? { error } : {}),
        durationMs: this.now() - started,
      };
    };
    try {
      await this.deps.beforePass?.(key);
      const shortfall =
        key.source === 'shield'
          ? await this.shieldPass(key, opts.owner, lease.signal, claim, log)
          : await this.originPass(key, opts.owner, lease.signal);
      const end = this.now();
      if (shortfall) {
        // What the API sent is stored; the day is not complete, and the next plan tries it again.
        await ledger.stop(key, opts.owner, 'incomplete', shortfall.message, end);
        const r = await result('incomplete', shortfall.message);
        log.warn({ err: shortfall.message, pages: r.pages, entries: r.entries }, 'day incomplete');
        return r;
      }
      const state = finishedState(key.day, passStartedAt, this.deps.finalizeDelayMs);
      if (!(await ledger.finish(key, opts.owner, state, coveredUntil(key.day, passStartedAt), end))) {
        throw new LeaseBusyError('another job', end, { context });
      }
      const r = await result(state);
      const { source: _src, zone: _z, day: _d, ...figures } = r;
      log.info(figures, 'day fetched');
      return r;
    } catch (raw) {
      // A full disk, a read-only file…: named, with the cause and the fix (store-error.ts).
      const err = asStoreError(redactError(coerceError(raw)), this.deps.store.location);
      // Only a holder that stopped renewing (or a clock far off) loses its lease: say so, it is rare.
      if (lease.lost() || err instanceof LeaseBusyError) {
        log.warn('lease lost: another worker took the day over; this pass stops');
        if (err instanceof LeaseBusyError) throw err;
        throw new LeaseBusyError('another job', this.now(), { context, cause: err });
      }
      if (err instanceof WindowExpiredError) {
        await ledger.stop(key, opts.owner, 'expired', err.message, this.now());
        log.warn({ err: err.message }, 'day is outside the API retention window');
        return await result('expired', err.message);
      }
      if (opts.signal?.aborted || err instanceof InterruptedError) {
        await ledger.stop(key, opts.owner, 'running', 'interrupted', this.now());
        throw err instanceof InterruptedError ? err : new InterruptedError({ context, cause: err });
      }
      const retryable = err instanceof EdgelogError ? err.retryable : true;
      const state = retryable && !opts.finalAttempt ? 'running' : 'failed';
      const stop = () => ledger.stop(key, opts.owner, state, describeError(err), this.now(), retryable);
      try {
        await stop();
      } catch (stopRaw) {
        // The ledger shares the archive's file: a full disk may refuse this write too. The pages stored
        // are committed with their checkpoint; only the lease and the error wait for the write to go through.
        log.error(
          {
            err: describeError(err),
            ledgerErr: describeError(asStoreError(coerceError(stopRaw), this.deps.store.location)),
          },
          'day failed, and the ledger could not record it yet; trying again every second',
        );
        this.retryLater(stop);
      }
      throw err;
    } finally {
      lease.release();
    }
  }

  /**
   * Retries a ledger write that failed every second while the lease would last, so that the day is free
   * for the job's retry as soon as the disk has room again, not only when the lease runs out.
   */
  private retryLater(write: () => Promise<void>): void {
    let left = Math.ceil(this.leaseMs / 1_000);
    let trying = false;
    const timer = setInterval(() => {
      if (trying) return; // the previous try is still waiting for the database
      trying = true;
      write().then(
        () => clearInterval(timer),
        () => {
          trying = false;
          if (--left <= 0) clearInterval(timer);
        },
      );
    }, 1_000);
    timer.unref();
  }

  /**
   * Renews the lease every third of its length while the pass runs (a page with retries can take
   * minutes). If it is lost (another run took the day over), the pass is stopped. The returned signal
   * fires on `outer` or on the loss.
   */
  private keepLease(key: DayKey, owner: string, outer: AbortSignal | undefined) {
    const lost = new AbortController();
    let renewing = false;
    const timer = setInterval(
      () => {
        if (renewing) return; // a renewal still waits for the database: one at a time
        renewing = true;
        this.deps.store.ledger.renew(key, owner, this.now(), this.leaseMs).then(
          (held) => {
            renewing = false;
            if (!held) lost.abort(new LeaseBusyError('another job', this.now()));
          },
          () => {
            renewing = false; // busy database: try again at the next tick, well before the lease runs out
          },
        );
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    return {
      signal: outer ? AbortSignal.any([outer, lost.signal]) : lost.signal,
      lost: () => lost.signal.aborted,
      release: () => clearInterval(timer),
    };
  }

  private async shieldPass(
    key: DayKey & { day: Day },
    owner: string,
    signal: AbortSignal,
    claim: Extract<Claim, { kind: 'claimed' }>,
    log: Logger,
  ): Promise<Shortfall> {
    const { client, store } = this.deps;
    const source: ShieldPageSource = this.deps.pages ?? ((q, s) => shieldPages(client, q, s));
    const startToken = claim.resumed ? (claim.row.next_token ?? '') : '';
    const query = {
      zone: key.zone,
      day: key.day,
      startToken,
      donePages: claim.resumed ? claim.row.pages : 0,
      pageCap: this.deps.pageCap,
      partRows: this.chunkRows,
      ...(this.deps.wholePageBytes === undefined ? {} : { wholePageBytes: this.deps.wholePageBytes }),
    };
    let pages = source(query, signal);
    try {
      let first: IteratorResult<ShieldPageResult, void>;
      try {
        first = await pages.next();
      } catch (err) {
        // A token saved long ago may have expired at the API: start the day over (inserts are idempotent).
        if (startToken === '' || !(err instanceof HttpStatusError) || ![400, 404, 410].includes(err.status))
          throw err;
        log.warn(
          { err: err.message },
          'the saved continuation token was refused; restarting the day from its first page',
        );
        await store.ledger.claim(key, owner, this.now(), this.leaseMs, false);
        pages = source({ ...query, startToken: '', donePages: 0 }, signal);
        first = await pages.next();
      }
      for (let next = first; !next.done; next = await pages.next()) {
        const page = next.value;
        // The page's rows, its quarantined entries and the checkpoint naming the page after it commit
        // together. A page stored in parts keeps the checkpoint on itself until its last part.
        const more = page.part?.more === true;
        await this.storePage(key, owner, {
          source: 'shield',
          batch: page.batch,
          page: page.page,
          nextToken: more ? page.token : page.nextToken,
          pages: more ? 0 : 1,
          ...(page.part ? { counts: page.part.more ? NO_COUNTS : page.part.counts } : {}),
        });
        if (page.stop) {
          return {
            message: `${page.stop.message}; the ${page.page} pages fetched are stored, and the next plan fetches the day again`,
          };
        }
        // Stopped between pages, or between the parts of one (its checkpoint is the page itself).
        if ((more || page.nextToken !== null) && signal.aborted) {
          throw new InterruptedError({ context: { zone: key.zone, date: key.day, page: page.page } });
        }
      }
      return null;
    } finally {
      // On every path (a store failure included): frees a page thread's job and any request made ahead.
      await pages.return(undefined);
    }
  }

  private async originPass(
    key: DayKey & { day: Day },
    owner: string,
    signal: AbortSignal,
  ): Promise<Shortfall> {
    const { client, store } = this.deps;
    const source: OriginDaySource =
      this.deps.originDays ?? ((q, store, restart, s) => streamOriginDay(client, q, store, restart, s));
    const paging = await source(
      { zone: key.zone, day: key.day, batchSize: this.chunkRows },
      // Each batch commits with the ledger's counts; the first one also counts the call.
      (batch, first) =>
        this.storePage(key, owner, {
          source: 'origin',
          batch,
          page: 0,
          nextToken: null,
          pages: first ? 1 : 0,
        }),
      // A retried request starts the day's pass over, so its counts are not doubled.
      async () => void (await store.ledger.claim(key, owner, this.now(), this.leaseMs, false)),
      signal,
    );
    if (paging.hasMoreData === true) {
      return {
        message:
          'the origin answer says it holds more data (hasMoreData), and the operation has no paging: ' +
          'what it sent is stored, and the day is fetched again',
      };
    }
    return null;
  }

  /**
   * Stores a page (one transaction) and counts it once committed (a rolled-back page counts nothing).
   * Losing the lease means another run took the day over: nothing of the page was kept, and this pass stops.
   */
  private async storePage(key: DayKey, owner: string, page: PageInput): Promise<void> {
    const stored = await this.deps.store.storePage(key, owner, page, this.now(), this.leaseMs);
    if (stored.kind === 'lease-lost')
      throw new LeaseBusyError('another job', this.now(), { context: { zone: key.zone, date: key.day } });
    const counts = pageCounts(page, stored.malformed);
    this.counted(key, {
      nextToken: page.nextToken,
      entries: counts.entries,
      pages: page.pages,
      inserted: stored.inserted,
      malformed: counts.malformed,
      quarantined: counts.quarantined,
      quarantineInserted: stored.quarantineInserted,
      firstTs: stored.firstTs,
      lastTs: stored.lastTs,
    });
  }

  /** Counts a page once its transaction has committed (a rolled-back page counts nothing). */
  private counted(key: DayKey, p: PageProgress): void {
    (this.deps.metrics ?? NO_METRICS).page(key.source, key.zone, p);
  }
}
