// The working time a history query may take (`--timeout`): counted only while the engine works (loading
// the store's rows, DuckDB computing the next rows), not while the output waits for its reader. A DuckDB
// call still running when the budget runs out is interrupted; Node's own loops call check() between
// chunks.
import { StoreQueryError } from '../store/store-query-error.js';

export class WorkBudget {
  private used = 0;
  private since: number | null = null;
  private interrupted = false;

  /** `limitMs` 0 or null: no bound. `interrupt` stops what DuckDB is doing now. */
  constructor(
    private readonly limitMs: number | null,
    private readonly interrupt: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private get bounded(): boolean {
    return this.limitMs !== null && this.limitMs > 0;
  }

  /** Working time spent so far, ms. */
  spent(): number {
    return this.used + (this.since === null ? 0 : this.now() - this.since);
  }

  /** Time left, ms; null when unbounded. */
  remaining(): number | null {
    return this.bounded ? Math.max(0, this.limitMs! - this.spent()) : null;
  }

  timeout(cause?: unknown): StoreQueryError {
    return new StoreQueryError('timeout', `query stopped after ${this.limitMs} ms`, { cause });
  }

  /** Throws the timeout once the budget is spent. */
  check(): void {
    if (this.bounded && this.spent() > this.limitMs!) throw this.timeout();
  }

  /** True when a failure came from the interrupt this budget sent. */
  wasInterrupted(): boolean {
    return this.interrupted;
  }

  /** Runs `work` on the clock; an interrupted DuckDB call fails with the timeout. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.check();
    const left = this.remaining();
    const timer =
      left === null
        ? undefined
        : setTimeout(() => {
            this.interrupted = true;
            this.interrupt();
          }, left);
    this.since = this.now();
    try {
      return await work();
    } catch (err) {
      if (this.interrupted) throw this.timeout(err);
      throw err;
    } finally {
      clearTimeout(timer);
      this.used += this.now() - this.since;
      this.since = null;
    }
  }
}
