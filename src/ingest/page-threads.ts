// Shield passes and origin days fetched and decoded on worker threads, so the main thread only stores.
// On one thread, fetching and storing take turns: a page's bytes wait in the socket while the page
// before is stored, then storing waits while they are decoded. A page thread reads, guesses the next
// token, requests it and decodes on its own, ahead of the main thread by at most `credit` pages (or
// origin batches) a job.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config/index.js';
import { EdgelogError } from '../errors/index.js';
import { fromTransferable, toTransferable, type TransferredError } from '../errors/transfer.js';
import { relayLogLine, type Logger } from '../logger.js';
import type { RequestMetrics } from '../telemetry/events.js';
import { replayRequestEvent, type RequestEvent } from '../telemetry/relay.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import type { OriginQuery, ShieldPageResult, ShieldPagesQuery } from './fetch-pages.js';
import type { OriginBatch } from '../store/rows.js';

export interface PageThreadData {
  api: Config['api'];
  logLevel: string;
  /** Decoded pages a pass may have waiting for the main thread. */
  credit: number;
}

export type ToPages =
  | { type: 'pass'; id: number; query: ShieldPagesQuery }
  | { type: 'origin'; id: number; query: OriginQuery }
  | { type: 'ack'; id: number }
  | { type: 'stop'; id: number };

export type FromPages =
  | { type: 'page'; id: number; page: ShieldPageResult }
  | { type: 'batch'; id: number; batch: OriginBatch; first: boolean }
  | { type: 'restart'; id: number }
  | { type: 'end'; id: number; paging: PagingFields | null }
  | { type: 'error'; id: number; error: TransferredError }
  | { type: 'log'; line: string }
  | { type: 'metric'; event: RequestEvent }
  | { type: 'ready' };

type JobMessage = Exclude<FromPages, { type: 'log' | 'metric' | 'ready' }>;
type Progress = Extract<JobMessage, { type: 'page' | 'batch' | 'restart' }>;

/**
 * The threads to start by default: one where a core is left for it, else none. The main thread takes a
 * core, and with a history the history process another (it writes the parts as pages are stored). On 2
 * cores with a history a page thread bought nothing: a 1,000,000-entry Shield day took 25.4 s with one
 * and 25.6 s without, at 199 and 166 MiB peak (2026-11-29, docs/MEASUREMENTS.md).
 */
export function defaultPageThreads(history: boolean, cores = availableParallelism()): number {
  return cores > (history ? 2 : 1) ? 1 : 0;
}

// A small young generation keeps the thread's garbage, and the process's RSS, in check (measured: 16 MB
// no slower than more). The old generation has the main thread's bound (bin/edgelog.js) by default.
const YOUNG_GENERATION_MB = 16;
const OLD_GENERATION_MB = 1024;

class PageThread {
  readonly passes = new Map<number, (m: JobMessage) => void>();
  /** Settles when the thread has loaded its modules (true) or died first (false). */
  readonly ready: Promise<boolean>;
  private readonly worker: Worker;
  private stopped = false;
  private loaded: (ok: boolean) => void = () => {};

  constructor(
    data: PageThreadData,
    heapMb: number,
    logger: Logger,
    metrics: RequestMetrics | undefined,
    onExit: (t: PageThread) => void,
  ) {
    const { entry, isCode } = threadEntry();
    this.worker = new Worker(entry, {
      eval: isCode,
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: heapMb },
    });
    this.worker.unref(); // referenced only while it has passes (see start)
    this.ready = new Promise((resolve) => (this.loaded = resolve));
    this.worker.on('message', (m: FromPages) => {
      if (m.type === 'log') return relayLogLine(logger, m.line, 'a page thread');
      if (m.type === 'metric') return metrics && replayRequestEvent(metrics, m.event);
      if (m.type === 'ready') return this.loaded(true);
      this.passes.get(m.id)?.(m);
    });
    const fail = (why: string) => {
      this.loaded(false);
      if (this.stopped) return;
      this.stopped = true;
      onExit(this);
      logger.warn({ err: why }, 'a page thread stopped');
      const error = new EdgelogError(`the page thread stopped: ${why}`, { retryable: true });
      for (const [id, deliver] of this.passes) deliver({ type: 'error', id, error: toTransferable(error) });
    };
    this.worker.on('error', (err) => fail(err.message));
    this.worker.on('exit', (code) => fail(`exit code ${code}`));
  }

  start(m: Extract<ToPages, { type: 'pass' | 'origin' }>, deliver: (m: JobMessage) => void): void {
    if (this.passes.size === 0) this.worker.ref();
    this.passes.set(m.id, deliver);
    this.post(m);
  }

  finish(id: number): void {
    this.passes.delete(id);
    if (this.passes.size === 0) this.worker.unref();
  }

  post(m: ToPages): void {
    if (!this.stopped) this.worker.postMessage(m);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }
}

/**
 * The thread's module. Run from src/ (tests, tsx), it is TypeScript, and Node 20 does not hand the
 * parent's loader to workers: a two-line bootstrap registers tsx in the thread, then imports it.
 */
function threadEntry(): { entry: string | URL; isCode: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { entry: new URL('./page-thread.js', here), isCode: false };
  // tsx's ESM API (its `import` export; require.resolve finds the CommonJS twin beside it).
  const cjs = createRequire(here).resolve('tsx/esm/api');
  const api = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./page-thread.ts', here).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return { entry: code, isCode: true };
}

export interface PageThreadsOptions {
  threads: number;
  api: Config['api'];
  logger: Logger;
  /** Pages or batches a job may have sent ahead of the one being stored. @defaultValue 3 */
  credit?: number;
  /** Told of the threads' request attempts and retries (relayed as messages). @defaultValue none */
  metrics?: RequestMetrics;
  /** Each thread's old generation, in MB (tests make it small). @defaultValue 1024, the main thread's */
  maxOldGenerationSizeMb?: number;
}

/** A pool of page threads (see warm); a job goes to the thread with the fewest. */
export class PageThreads {
  private readonly threads: PageThread[] = [];
  private readonly data: PageThreadData;
  private nextId = 0;
  private closed = false;

  constructor(private readonly opts: PageThreadsOptions) {
    if (!Number.isInteger(opts.threads) || opts.threads < 1) {
      throw new RangeError(`page threads: expected an integer ≥ 1, got ${opts.threads}`);
    }
    this.data = { api: opts.api, logLevel: opts.logger.level, credit: opts.credit ?? 3 };
  }

  /**
   * Starts every thread now rather than on first use, and resolves once they have loaded their modules
   * (about 170 ms, which the first jobs would otherwise wait for): true when all of them did. Idle
   * threads keep no process alive.
   */
  async warm(): Promise<boolean> {
    while (!this.closed && this.threads.length < this.opts.threads) this.spawn();
    const ready = await Promise.all(this.threads.map((t) => t.ready));
    return ready.length > 0 && ready.every(Boolean);
  }

  private spawn(): PageThread {
    const heapMb = this.opts.maxOldGenerationSizeMb ?? OLD_GENERATION_MB;
    const thread = new PageThread(this.data, heapMb, this.opts.logger, this.opts.metrics, (t) => {
      const i = this.threads.indexOf(t);
      if (i >= 0) this.threads.splice(i, 1);
    });
    this.threads.push(thread);
    return thread;
  }

  private pick(): PageThread {
    if (this.threads.length < this.opts.threads) return this.spawn();
    return this.threads.reduce((a, b) => (b.passes.size < a.passes.size ? b : a));
  }

  /** Every page of a pass, in order: the same contract as fetch-pages.ts's shieldPages. */
  async *shieldPages(q: ShieldPagesQuery, signal?: AbortSignal): AsyncGenerator<ShieldPageResult, void> {
    for await (const m of this.job((id) => ({ type: 'pass', id, query: q }), signal)) {
      if (m.type === 'page') yield m.page;
    }
  }

  /** An origin day in batches: the same contract as fetch-pages.ts's streamOriginDay, less the client. */
  async streamOriginDay(
    q: OriginQuery,
    store: (batch: OriginBatch, first: boolean) => void | Promise<void>,
    restart: () => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<PagingFields> {
    const messages = this.job((id) => ({ type: 'origin', id, query: q }), signal);
    try {
      for (let next = await messages.next(); ; next = await messages.next()) {
        if (next.done) return next.value ?? { hasMoreData: null, continuationToken: null, startToken: null };
        if (next.value.type === 'batch') await store(next.value.batch, next.value.first);
        else if (next.value.type === 'restart') await restart();
      }
    } finally {
      // Also when `store` throws: stops the job on the thread, which would otherwise wait for room.
      await messages.return(null);
    }
  }

  /**
   * Starts a job on a thread and yields its progress; returns its paging fields, or throws its error.
   * Each page or batch is acknowledged when the caller asks for the next, which gives the thread room
   * for one more. Stopping early (or the signal) stops the job on the thread.
   */
  private async *job(
    start: (id: number) => Extract<ToPages, { type: 'pass' | 'origin' }>,
    signal?: AbortSignal,
  ): AsyncGenerator<Progress, PagingFields | null> {
    if (this.closed) throw new EdgelogError('the page threads are closed');
    const thread = this.pick();
    const id = this.nextId++;
    const inbox: JobMessage[] = [];
    let wake: (() => void) | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    thread.start(start(id), (m) => {
      inbox.push(m);
      wake?.();
    });
    let ended = false;
    try {
      for (;;) {
        for (;;) {
          // Checked before every message, even one already waiting: a stopped job yields nothing more.
          if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
          if (inbox.length > 0) break;
          await new Promise<void>((resolve) => (wake = resolve));
        }
        const m = inbox.shift()!;
        if (m.type === 'end') {
          ended = true;
          return m.paging;
        }
        if (m.type === 'error') {
          ended = true;
          throw fromTransferable(m.error);
        }
        yield m;
        if (m.type !== 'restart') thread.post({ type: 'ack', id });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!ended) thread.post({ type: 'stop', id });
      thread.finish(id);
    }
  }

  /** Jobs in hand on the threads (a job stops on its thread when its consumer stops or fails). */
  activeJobs(): number {
    return this.threads.reduce((n, t) => n + t.passes.size, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.splice(0).map((t) => t.stop()));
  }
}
