// Fetches one (source, zone, day) to exhaustion into the archive: page → parse → store + checkpoint in
// one transaction. Killed at any instant, a re-run resumes from the last committed checkpoint, and the
// idempotent inserts make a re-fetched page harmless.
import { hostname } from 'node:os';
import {
  EdgelogError,
  HttpStatusError,
  WindowExpiredError,
  coerceError,
  describeError,
} from '../errors/index.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import type { Logger } from '../logger.js';
import type { Db } from '../store/database.js';
import type { DayKey, LedgerRepository, LogSource } from '../store/ledger.repository.js';
import type { OriginLogsRepository } from '../store/origin-logs.repository.js';
import type { ShieldLogsRepository } from '../store/shield-logs.repository.js';
import type { Day } from '../time/utc-day.js';
import { coveredUntil, finishedState } from './day-state.js';
import { InterruptedError, LeaseBusyError } from './errors.js';
import {
  shieldPages,
  streamOriginDay,
  type FetchClient,
  type OriginQuery,
  type ShieldPageResult,
  type ShieldPagesQuery,
} from './fetch-pages.js';
import type { OriginBatch } from './row-batch.js';

/** The pages of a Shield pass, in order (fetch-pages.ts, or page-threads.ts off the main thread). */
export type ShieldPageSource = (
  q: ShieldPagesQuery,
  signal?: AbortSignal,
) => AsyncGenerator<ShieldPageResult, void>;

/** An origin day through `store` in batches (fetch-pages.ts, or page-threads.ts off the main thread). */
export type OriginDaySource = (
  q: OriginQuery,
  store: (batch: OriginBatch, first: boolean) => void,
  restart: () => void,
  signal?: AbortSignal,
) => Promise<PagingFields>;

export interface DayResult {
  source: LogSource;
  zone: number;
  day: string;
  state: 'complete' | 'partial' | 'expired';
  /** True when this run continued an interrupted pass from its checkpoint. */
  resumed: boolean;
  pages: number;
  entries: number;
  newEntries: number;
  malformed: number;
  durationMs: number;
}

export interface DayIngestorDeps {
  client: FetchClient;
  /** Where a pass's Shield pages come from. @defaultValue shieldPages on this thread, with `client` */
  pages?: ShieldPageSource;
  /** Where an origin day's batches come from. @defaultValue streamOriginDay on this thread, with `client` */
  originDays?: OriginDaySource;
  db: Db;
  ledger: LedgerRepository;
  origin: OriginLogsRepository;
  shield: ShieldLogsRepository;
  logger: Logger;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Shield pages one pass may take. */
  pageCap: number;
  /** See finishedState. */
  finalizeDelayMs: number;
  /** How long a claim on a day lasts without progress. @defaultValue 120 s */
  leaseMs?: number;
  /**
   * Origin rows per transaction, as in a Shield page: short synchronous chunks keep BullMQ's lock
   * renewals on time and a page thread's batches small (1,000 measured faster than 5,000, on either
   * thread). @defaultValue 1000
   */
  chunkRows?: number;
  /** Tells whether a lease holder is gone. @defaultValue ownerIsGone (a dead process on this host) */
  abandoned?: (owner: string) => boolean;
}

export interface RunOptions {
  /** Who is fetching: see ownerId. A retry of the same job may take over its own lease at once. */
  owner: string;
  /** Stops the pass between pages (the page in hand is finished first). */
  signal?: AbortSignal | undefined;
  /** Continue an interrupted pass from its checkpoint. @defaultValue true */
  resume?: boolean;
  /** No retry will follow: a retryable failure marks the day failed instead of keeping it running. */
  finalAttempt?: boolean;
}

/** A lease owner name: the job, and the host and process working it. */
export function ownerId(jobId: string, host = hostname(), pid = process.pid): string {
  return `${jobId}@${host}/${pid}`;
}

/**
 * True when the owner ran on this host in a process that no longer exists (killed, crashed), so its
 * lease can be taken without waiting for it to expire. Owners on other hosts are never presumed gone.
 */
export function ownerIsGone(owner: string): boolean {
  const match = /@(.+)\/(\d+)$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

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
   * Runs one pass. Returns the result for complete, partial and expired days. Throws LeaseBusyError when
   * another job holds the day, InterruptedError when stopped between pages (checkpoint kept), and the
   * API's EdgelogError otherwise: a retryable one keeps the checkpoint for the retry, a permanent one
   * marks the day failed.
   */
  async run(key: DayKey & { day: Day }, opts: RunOptions): Promise<DayResult> {
    const { ledger } = this.deps;
    const started = this.now();
    const context = { source: key.source, zone: key.zone, date: key.day };
    const claim = ledger.claim(
      key,
      opts.owner,
      started,
      this.leaseMs,
      opts.resume ?? true,
      this.deps.abandoned ?? ownerIsGone,
    );
    if (claim.kind === 'busy') throw new LeaseBusyError(claim.owner, claim.until, { context });
    const log = this.deps.logger.child(context);
    const passStartedAt = claim.row.pass_started_at ?? started;
    try {
      if (key.source === 'shield') {
        await this.shieldPass(
          key,
          opts,
          claim.resumed ? (claim.row.next_token ?? '') : '',
          claim.row.pages,
          log,
        );
      } else {
        await this.originPass(key, opts, log);
      }
      const state = finishedState(key.day, passStartedAt, this.deps.finalizeDelayMs);
      const end = this.now();
      if (!ledger.finish(key, opts.owner, state, coveredUntil(key.day, passStartedAt), end)) {
        throw new LeaseBusyError('another job', end, { context });
      }
      const row = ledger.get(key)!;
      const result: DayResult = {
        ...context,
        day: key.day,
        state,
        resumed: claim.resumed,
        pages: row.pages,
        entries: row.entries,
        newEntries: row.new_entries,
        malformed: row.malformed,
        durationMs: end - started,
      };
      const { state: _s, source: _src, zone: _z, day: _d, ...figures } = result;
      log.info({ state, ...figures }, 'day fetched');
      return result;
    } catch (raw) {
      const err = coerceError(raw);
      if (err instanceof WindowExpiredError) {
        ledger.stop(key, opts.owner, 'expired', err.message, this.now());
        log.warn({ err: err.message }, 'day is outside the API retention window: marked expired');
        const row = ledger.get(key)!;
        return {
          ...context,
          day: key.day,
          state: 'expired',
          resumed: claim.resumed,
          pages: row.pages,
          entries: row.entries,
          newEntries: row.new_entries,
          malformed: row.malformed,
          durationMs: this.now() - started,
        };
      }
      if (opts.signal?.aborted || err instanceof InterruptedError) {
        ledger.stop(key, opts.owner, 'running', 'interrupted', this.now());
        throw err instanceof InterruptedError ? err : new InterruptedError({ context, cause: err });
      }
      const retryable = err instanceof EdgelogError ? err.retryable : true;
      const state = retryable && !opts.finalAttempt ? 'running' : 'failed';
      ledger.stop(key, opts.owner, state, describeError(err), this.now());
      throw err;
    }
  }

  private async shieldPass(
    key: DayKey & { day: Day },
    opts: RunOptions,
    startToken: string,
    donePages: number,
    log: Logger,
  ): Promise<void> {
    const { client, db, ledger, shield } = this.deps;
    const source: ShieldPageSource = this.deps.pages ?? ((q, signal) => shieldPages(client, q, signal));
    const query = { zone: key.zone, day: key.day, startToken, donePages, pageCap: this.deps.pageCap };
    let pages = source(query, opts.signal);
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
      ledger.claim(key, opts.owner, this.now(), this.leaseMs, false);
      pages = source({ ...query, startToken: '', donePages: 0 }, opts.signal);
      first = await pages.next();
    }
    for (let next = first; !next.done; next = await pages.next()) {
      const page = next.value;
      // The page's rows and the checkpoint naming the page after it commit together.
      db.transaction(() => {
        const stored = shield.store(key.zone, key.day, page.batch);
        this.recordPage(key, opts.owner, page.nextToken, page.batch.logId.length, stored, 1);
      }).immediate();
      if (page.nextToken !== null && opts.signal?.aborted) {
        await pages.return();
        throw new InterruptedError({ context: { zone: key.zone, date: key.day, page: page.page } });
      }
    }
  }

  private async originPass(key: DayKey & { day: Day }, opts: RunOptions, log: Logger): Promise<void> {
    const { client, db, ledger, origin } = this.deps;
    const source: OriginDaySource =
      this.deps.originDays ??
      ((q, store, restart, signal) => streamOriginDay(client, q, store, restart, signal));
    const paging = await source(
      { zone: key.zone, day: key.day, batchSize: this.chunkRows },
      // Each batch commits with the ledger's counts; the first one also counts the call.
      (batch, first) =>
        db
          .transaction(() => {
            const stored = origin.store(key.zone, key.day, batch);
            this.recordPage(key, opts.owner, null, batch.logId.length, stored, first ? 1 : 0);
          })
          .immediate(),
      // A retried request starts the day's pass over, so its counts are not doubled.
      () => ledger.claim(key, opts.owner, this.now(), this.leaseMs, false),
      opts.signal,
    );
    if (paging.hasMoreData) {
      log.warn(
        'origin answer announces more data; the operation has no paging, so the day is taken as answered',
      );
    }
  }

  private recordPage(
    key: DayKey,
    owner: string,
    nextToken: string | null,
    entries: number,
    stored: { inserted: number; malformed: number; firstTs: number | null; lastTs: number | null },
    pages: 0 | 1,
  ): void {
    const ok = this.deps.ledger.recordPage(
      key,
      owner,
      { nextToken, entries, pages, ...stored },
      this.now(),
      this.leaseMs,
    );
    // Losing the lease means another job took the day over: roll this page back and let it continue.
    if (!ok)
      throw new LeaseBusyError('another job', this.now(), { context: { zone: key.zone, date: key.day } });
  }
}
