// A private redis-server for one scenario, which the scenario may kill (SIGKILL, as a crash or an OOM
// kill would) and start again on the same port, with its data (AOF) or empty (the data gone).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisOptions } from '../../../src/redis/connection.js';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../../src/redis/embedded-redis.js';

export class RedisProcess {
  private server: EmbeddedRedis | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** Starts a persistent (AOF) server in `dir` on a free loopback port. */
  static async start(dir: string): Promise<RedisProcess> {
    const redis = new RedisProcess(dir, await freePort());
    await redis.boot();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async boot(): Promise<void> {
    this.server = await startRedisServer({ dir: this.dir, port: this.port, persistent: true });
  }

  /** A short-lived client (the scenario's own reads: schedulers, keys, a dump). */
  async withClient<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis({ ...redisOptions({ url: this.url }), maxRetriesPerRequest: 3 });
    client.on('error', () => {});
    try {
      return await fn(client);
    } finally {
      client.disconnect();
    }
  }

  /** SIGKILL: no shutdown, no final write; what the AOF had not flushed (up to a second) is lost. */
  async kill(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const pid = await this.withClient(async (c) => {
      const info = await c.info('server');
      return Number(/process_id:(\d+)/.exec(info)?.[1]);
    });
    process.kill(pid, 'SIGKILL');
    await server.stop(); // resolves once the process has exited
    this.server = undefined;
  }

  /** Starts the server again on the same port, with what its AOF holds, or with nothing. */
  async restart(opts: { empty: boolean }): Promise<void> {
    if (this.server) throw new Error('redis-server is still running: kill() it first');
    if (opts.empty) {
      for (const file of ['appendonlydir', 'appendonly.aof', 'dump.rdb']) {
        rmSync(join(this.dir, file), { recursive: true, force: true });
      }
    }
    await this.boot();
  }

  /**
   * Everything the server holds, as raw bytes of an uncompressed RDB snapshot (strings in it appear as
   * they are stored), for the secrets scan.
   */
  async dump(): Promise<Buffer> {
    await this.withClient(async (c) => {
      await c.config('SET', 'rdbcompression', 'no');
      await c.call('SAVE');
    });
    return readFileSync(join(this.dir, 'dump.rdb'));
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }
}
