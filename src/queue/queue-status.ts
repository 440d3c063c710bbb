// The ingest queue as `edgelog status` shows it: job counts by state and the schedulers, read through a
// short-lived BullMQ Queue (loaded only here), or null when Redis cannot be reached.
import type { Config } from '../config/index.js';

export interface QueueStatus {
  /** Where Redis is, for messages (no password). */
  redis: string;
  counts: Record<string, number>;
  /** Scheduler ids, sorted. */
  schedulers: string[];
}

export async function readQueueStatus(config: Config): Promise<QueueStatus | null> {
  const [{ Queue }, { INGEST_QUEUE }, { redisOptions }, { findRedis }] = await Promise.all([
    import('bullmq'),
    import('./jobs.js'),
    import('../redis/connection.js'),
    import('../redis/resolve.js'),
  ]);
  const redis = await findRedis(config);
  if (!redis) return null;
  const q = new Queue(INGEST_QUEUE, { connection: redisOptions(redis.target), prefix: config.redis.prefix });
  try {
    return {
      redis: redis.display,
      counts: await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
      schedulers: (await q.getJobSchedulers(0, -1)).map((s) => s.key).sort(),
    };
  } finally {
    await q.close();
  }
}
