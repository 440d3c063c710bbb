// The history's work (flushes, compactions, pruning, retention, thaws) in a process of its own, so that
// the worker that ingests never loads DuckDB, never holds its buffers, and never waits for a part to be
// written: Loki's ingesters and compactor, ClickHouse's inserts and merges. The child runs a
// HistoryRunner (history-runner.ts) over its own connection to the same store; the store's leases keep
// it and any other worker's history apart as before. A child that dies (a crash, the OOM killer) fails
// the calls in hand, and the next call starts another: what it was writing is covered by the next flush
// or merge, as after a crash of the whole worker.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HistoryError } from '../errors/index.js';
import { fromTransferable, type TransferredError } from '../errors/transfer.js';
import { relayLogLine, type Logger } from '../logger.js';
import type { StoreTarget } from '../store/open-store.js';
import type { HistoryStore } from '../store/history-store.js';
import { FLUSH_ROWS, rowsAboveWatermark, type HistoryRunner } from './history-runner.js';

/** What the worker asks of the history. */
export interface HistoryWork extends Pick<
  HistoryRunner,
  'plan' | 'flush' | 'expire' | 'thaw' | 'compact' | 'close'
> {
  /** Tells the history `n` rows were stored: once FLUSH_ROWS have been since the last flush, one starts (not awaited). */
  noteStored(n: number): void;
  /**
   * Flushes when the store holds at least `minRows` rows above the watermark (all tables): what `sync`
   * does at its end, so that the rows readers read from the store stay few however many syncs run, and a
   * sync of a few small days does not pay a part per zone-day. 'nothing' when fewer.
   */
  flushIfDue(minRows: number): ReturnType<HistoryRunner['flush']>;
  /** A flush within FLUSH_DELAY_MS, not awaited: after a day's pass (one flush for many small days). */
  flushSoon(): void;
  /** The peak RSS of the process doing the history's work, MiB; null when it has not started. */
  peakRssMb(): Promise<number | null>;
}

type Op = 'plan' | 'flush' | 'expire' | 'thaw' | 'compact' | 'memory';

/** The history process's memory, as it reads its own (`/metrics` shows it beside the worker's). */
export interface HistoryMemory {
  /** Resident set size now, bytes. */
  rssBytes: number;
  /** The largest it has been, bytes. */
  peakBytes: number;
}

/** The child's configuration: what a HistoryRunner needs, less what cannot cross (the store, the clock). */
export interface HistoryChildStart {
  database: StoreTarget;
  root: string;
  hotDays: number | null;
  originLookbackDays: number;
  leaseMs: number;
  owner: string;
  logLevel: string;
}

export type ToHistory =
  | { type: 'start'; start: HistoryChildStart; now: number }
  // `now`: the worker's clock when it asked (a test's clock may be fixed; the child's runs on from it).
  | { type: 'call'; id: number; op: Op; arg: unknown; now: number }
  | { type: 'close' };

export type FromHistory =
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: TransferredError }
  | { type: 'log'; line: string }
  | { type: 'closed' };

export interface HistoryProcessOptions extends HistoryChildStart {
  /** Rows stored since the last flush that start one (noteStored). @defaultValue FLUSH_ROWS */
  flushRows?: number;
  /** The worker's own store: flushIfDue counts there, so that no child starts for a flush not due. */
  store: { history: Pick<HistoryStore, 'flush' | 'list'> };
  now: () => number;
  logger: Logger;
  /** How long close() waits for the work in hand before it stops the child. @defaultValue 10 s */
  closeTimeoutMs?: number;
}

/**
 * How long after a day's pass its rows may wait for a flush. A flush per pass cost the latency-bound
 * bench (150 small days) 4.7 s of its 8.8 s wall, though in another process (2026-11-29); the rows are
 * read from the store meanwhile, and 50,000 stored rows flush at once (noteStored).
 */
export const FLUSH_DELAY_MS = 30_000;

export class HistoryProcess implements HistoryWork {
  private child: ChildProcess | undefined;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stored = 0;
  private closed = false;
  /** A flush asked for and not yet answered: a request meanwhile joins it (the child's runner joins too). */
  private flushing: ReturnType<HistoryWork['flush']> | undefined;
  private soon: NodeJS.Timeout | undefined;

  constructor(private readonly opts: HistoryProcessOptions) {}

  /** The child's pid while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  plan(): ReturnType<HistoryWork['plan']> {
    return this.call('plan', null) as ReturnType<HistoryWork['plan']>;
  }

  flush(): ReturnType<HistoryWork['flush']> {
    this.stored = 0;
    clearTimeout(this.soon);
    this.soon = undefined;
    this.flushing ??= (this.call('flush', null) as ReturnType<HistoryWork['flush']>).finally(
      () => (this.flushing = undefined),
    );
    return this.flushing;
  }

  async flushIfDue(minRows: number): ReturnType<HistoryWork['flushIfDue']> {
    const { below, rows } = await rowsAboveWatermark(this.opts.store.history, this.opts.root);
    if (rows < minRows) return { outcome: 'nothing', below, parts: 0, rows: 0, converted: 0 };
    return this.flush();
  }

  expire(beforeMs: number): ReturnType<HistoryWork['expire']> {
    return this.call('expire', beforeMs) as ReturnType<HistoryWork['expire']>;
  }

  async thaw(key: Parameters<HistoryWork['thaw']>[0]): ReturnType<HistoryWork['thaw']> {
    // A day the history has no record of was never merged, so never pruned (thaw.ts): asked before each
    // pass, this needs no history process (a sync of many small days would start one for nothing).
    const records = await this.opts.store.history.list({ source: key.source, zone: key.zone });
    if (!records.some((r) => r.log_date === key.day)) return 'not-pruned';
    return (await this.call('thaw', key)) as Awaited<ReturnType<HistoryWork['thaw']>>;
  }

  compact(key: Parameters<HistoryWork['compact']>[0]): ReturnType<HistoryWork['compact']> {
    return this.call('compact', key) as ReturnType<HistoryWork['compact']>;
  }

  async peakRssMb(): Promise<number | null> {
    const memory = await this.memory();
    return memory === null ? null : Math.round(memory.peakBytes / 2 ** 20);
  }

  /** The child's memory; null while none runs (asking starts none). */
  async memory(): Promise<HistoryMemory | null> {
    if (!this.child?.connected) return null;
    return (await this.call('memory', null)) as HistoryMemory;
  }

  noteStored(n: number): void {
    this.stored += n;
    if (this.stored < (this.opts.flushRows ?? FLUSH_ROWS) || this.closed) return;
    this.flush().catch((err: unknown) => this.failed(err));
  }

  flushSoon(): void {
    if (this.soon || this.closed) return;
    this.soon = setTimeout(() => void this.flush().catch((err: unknown) => this.failed(err)), FLUSH_DELAY_MS);
    this.soon.unref();
  }

  private failed(err: unknown): void {
    this.opts.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'history flush failed');
  }

  /** Lets the work in hand finish (within closeTimeoutMs), then the child closes its store and exits. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.soon);
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const send = (m: ToHistory) => {
      if (child.connected) child.send(m);
    };
    send({ type: 'close' });
    const timer = setTimeout(() => child.kill('SIGKILL'), this.opts.closeTimeoutMs ?? 10_000);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private call(op: Op, arg: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the history runner is closed'));
    const child = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      child.send({ type: 'call', id, op, arg, now: this.opts.now() } satisfies ToHistory);
    });
  }

  private failCalls(why: Error): void {
    for (const call of this.calls.values()) call.reject(why);
    this.calls.clear();
  }

  private started(): ChildProcess {
    if (this.child && this.child.connected) return this.child;
    const { entry, execArgv } = childEntry();
    // Advanced serialization: the results hold bigints (a flush's watermark).
    const child = fork(entry, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child = child;
    // A send to a child whose channel has just closed (it died starting: a Ctrl-C to the group before its
    // signal handlers were in) fails with EPIPE as an 'error' event, which would otherwise end the worker.
    // The calls in hand fail as retryable, and the next call starts another child.
    child.on('error', (err) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.failCalls(
        new HistoryError(
          `the history process could not be reached (${err.message}); the next call starts another`,
          {
            retryable: true,
          },
        ),
      );
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const { now: _n, logger: _l, closeTimeoutMs: _c, store: _s, flushRows: _f, ...start } = this.opts;
    child.send({ type: 'start', start, now: this.opts.now() } satisfies ToHistory);
    child.on('message', (m: FromHistory) => {
      if (m.type === 'log') return relayLogLine(this.opts.logger, m.line, 'the history process');
      if (m.type === 'closed') return;
      const call = this.calls.get(m.id);
      if (!call) return;
      this.calls.delete(m.id);
      if (m.type === 'result') call.resolve(m.value);
      else call.reject(fromTransferable(m.error));
    });
    child.on('exit', (code, signal) => {
      // A child already given up (its 'error') has no calls left: those in hand now are its successor's.
      if (this.child !== child) return;
      this.child = undefined;
      if (this.calls.size === 0) return;
      const why = new HistoryError(
        `the history process stopped (${signal ?? `exit code ${code}`}) before it answered; ` +
          'what it was writing is written again by the next flush or compaction',
        { retryable: true },
      );
      this.failCalls(why);
      if (!this.closed) this.opts.logger.warn({ err: why.message }, 'the history process stopped');
    });
    return child;
  }
}

/**
 * The child's module and node's flags for it. Run from src/ (tests, tsx), it is TypeScript: tsx's loader
 * goes in by --import. The parent's flags are not passed on (a test runner's, or bin/edgelog.js's heap
 * bounds, sized for the worker).
 */
function childEntry(): { entry: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts'))
    return { entry: fileURLToPath(new URL('./history-process-main.js', here)), execArgv: [] };
  const loader = createRequire(here)
    .resolve('tsx/esm')
    .replace(/\.cjs$/, '.mjs');
  return {
    entry: fileURLToPath(new URL('./history-process-main.ts', here)),
    execArgv: ['--import', pathToFileURL(loader).href],
  };
}
