// One account of Redis outages for the whole process. ioredis retries a lost connection every second or
// two, and each BullMQ queue and worker reports every failed attempt: left alone, an outage of an hour
// writes thousands of identical error lines. Every Redis error of the engine goes through here instead,
// and an outage is logged once when it starts and once when it ends.
import type { Logger } from '../logger.js';
import { redisFailureKind } from './failure-kind.js';

export interface RedisOutageOptions {
  logger: Logger;
  /** @defaultValue Date.now */
  now?: () => number;
  /**
   * Without a watch to say Redis is back (see redis-watch.ts), an outage is taken to have ended when no
   * error has said otherwise for this long; the next one is logged as a new outage. @defaultValue 30 s
   */
  quietMs?: number;
  /** Distinct other errors logged per outage; the rest are counted. @defaultValue 10 */
  maxDistinct?: number;
}

export class RedisOutage {
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly quietMs: number;
  private readonly maxDistinct: number;
  private downSince: number | null = null;
  private lastFailureAt = 0;
  private suppressed = 0;
  private readonly seen = new Set<string>();

  constructor(opts: RedisOutageOptions) {
    this.log = opts.logger;
    this.now = opts.now ?? Date.now;
    this.quietMs = opts.quietMs ?? 30_000;
    this.maxDistinct = opts.maxDistinct ?? 10;
  }

  /** True while an outage is under way. */
  get down(): boolean {
    return this.downSince !== null;
  }

  /** An error a Redis client, queue or worker reported; `client` says whose (e.g. `worker`). */
  report(client: string, err: Error): void {
    const at = this.now();
    const kind = redisFailureKind(err);
    if (kind === 'job-lost') {
      // One line per job in flight at most: worth a warning, not an error.
      this.log.warn(
        { client, err: err.message },
        "a job's record or lock is gone from Redis (Redis lost its data, or the outage outlasted the " +
          "job's lock); the ledger keeps the day's progress and the next plan fetches what is missing",
      );
      return;
    }
    if (kind === 'unreachable') {
      const quiet = this.downSince !== null && at - this.lastFailureAt > this.quietMs;
      this.lastFailureAt = at;
      if (this.downSince === null || quiet) {
        this.start(at);
        this.log.warn(
          { client, err: err.message },
          'Redis unreachable; ingestion waits for it (the ledger keeps every day in hand) and goes on when it is back',
        );
        return;
      }
      this.suppressed++;
      return;
    }
    if (this.downSince !== null) {
      if (this.seen.has(err.message) || this.seen.size >= this.maxDistinct) {
        this.suppressed++;
        return;
      }
      this.seen.add(err.message);
    }
    this.log.error({ client, err: err.message }, `${client} error`);
  }

  /**
   * Redis answered. Ends an outage under way (logging how long it lasted and how many errors were not
   * logged) and returns its length in ms; undefined when there was none.
   */
  recovered(): number | undefined {
    if (this.downSince === null) return undefined;
    const downMs = Math.max(0, this.now() - this.downSince);
    this.log.info(
      { downMs, suppressedErrors: this.suppressed },
      `Redis back after ${Math.round(downMs / 1000)} s`,
    );
    this.downSince = null;
    return downMs;
  }

  private start(at: number): void {
    this.downSince = at;
    this.suppressed = 0;
    this.seen.clear();
  }
}
