// Watches Redis for `edgelog run`: notices when it goes and comes back, and when it comes back without
// edgelog's state (restarted without persistence, flushed, failed over to a fresh replica), has that
// state put back. The ledger in SQLite is the truth; Redis only holds the work queue, which `restore`
// rebuilds from the configuration and the ledger.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { coerceError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { redisOptions, type RedisTarget } from './connection.js';
import { redisFailureKind } from './failure-kind.js';
import type { RedisOutage } from './outage.js';

export interface RedisWatchOptions {
  target: RedisTarget;
  /** Redis key prefix (config redis.prefix); the marker is `<prefix>:edgelog:epoch`. */
  prefix: string;
  /** Where failures are reported, and told when Redis answers again. */
  outage: RedisOutage;
  logger: Logger;
  /**
   * Puts back what Redis must hold for the worker (schedulers, a plan per zone). Idempotent. Called at
   * start, after every outage (a server restarted from its AOF may have lost its last second of writes),
   * and whenever the marker is gone; retried at the next check until it succeeds.
   */
  restore: () => Promise<void>;
  /** Time between checks. @defaultValue 1000 */
  intervalMs?: number;
  /** Bound on one check's command while Redis hangs. @defaultValue 2000 */
  commandTimeoutMs?: number;
}

export function markerKey(prefix: string): string {
  return `${prefix}:edgelog:epoch`;
}

export class RedisWatch {
  private readonly client: Redis;
  private readonly key: string;
  private readonly epoch = randomUUID();
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** A restore is owed: at start, and after one that failed. */
  private pending = true;
  private lastRestoreError: string | undefined;

  constructor(private readonly opts: RedisWatchOptions) {
    this.key = markerKey(opts.prefix);
    this.log = opts.logger.child({ component: 'redis' });
    // Fails fast while disconnected (no offline queue, one try) so that a check never waits on a reconnect;
    // ioredis keeps reconnecting on its own, every 2 s at most.
    this.client = new Redis({
      ...redisOptions(opts.target),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 2_000,
    });
    this.client.on('error', () => {}); // reported through the checks, once per outage
  }

  /** Runs the first check (and restore), then one every `intervalMs`. Resolves after the first. */
  async start(): Promise<void> {
    if (this.timer) return;
    await this.client.connect().catch((err: unknown) => this.opts.outage.report('watch', coerceError(err)));
    this.timer = setInterval(() => void this.check(), this.opts.intervalMs ?? 1_000);
    this.timer.unref();
    await this.check();
  }

  /** Stops checking; a restore under way is left to fail as the engine closes. */
  stop(): void {
    clearInterval(this.timer);
    this.client.disconnect();
  }

  /** One check at a time: a restore waiting for Redis holds the next ones back. */
  private check(): Promise<void> {
    this.running ??= this.checkOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async checkOnce(): Promise<void> {
    let present: boolean;
    try {
      present = (await this.client.exists(this.key)) === 1;
    } catch (err) {
      this.opts.outage.report('watch', coerceError(err));
      return;
    }
    const afterOutage = this.opts.outage.recovered() !== undefined;
    if (!present && !this.pending) {
      this.log.warn(
        'Redis holds none of the worker state (restarted without persistence, flushed, or failed over to ' +
          'a fresh replica): re-creating the schedulers and re-planning every zone from the ledger',
      );
    }
    if (present && !afterOutage && !this.pending) return;
    this.pending = true;
    try {
      // The marker first: if Redis loses its data again while restoring, the next check sees it gone.
      await this.client.set(this.key, this.epoch);
      await this.opts.restore();
      this.pending = false;
      this.lastRestoreError = undefined;
    } catch (raw) {
      const err = coerceError(raw);
      if (redisFailureKind(err) === 'unreachable') {
        this.opts.outage.report('watch', err);
      } else if (err.message !== this.lastRestoreError) {
        this.lastRestoreError = err.message;
        this.log.error({ err: err.message }, 'could not restore the worker state in Redis; retrying');
      }
    }
  }
}
