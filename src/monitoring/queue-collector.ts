// Queue depths from BullMQ at scrape time. The queues' connections wait for Redis forever (BullMQ needs
// that), so a scrape asks only a connection that is up, and never waits more than `timeoutMs`: a dead
// Redis makes the depths absent and edgelog_redis_up 0, not a hung scrape.
import type { Collector } from './collect.js';
import { within } from './collect.js';
import type { MetricSet } from './definitions.js';

/** The slice of a BullMQ Queue this reads. */
export interface CountableQueue {
  readonly name: string;
  /** Whether its Redis connection is up now. */
  connected(): Promise<boolean>;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

export function queueCollector(
  m: MetricSet,
  queues: readonly CountableQueue[],
  /** @defaultValue 1000 */
  timeoutMs = 1000,
): Collector {
  return {
    name: 'queues',
    async collect() {
      let counts: Array<Record<string, number>>;
      try {
        counts = await within(
          Promise.all(
            queues.map(async (q) => {
              if (!(await q.connected())) throw new Error('Redis is not connected');
              return q.getJobCounts(...QUEUE_STATES);
            }),
          ),
          timeoutMs,
          'queue depths',
        );
      } catch {
        m.queueJobs.reset();
        m.redisUp.set(0);
        return;
      }
      m.queueJobs.reset();
      queues.forEach((q, i) => {
        for (const state of QUEUE_STATES) m.queueJobs.set({ queue: q.name, state }, counts[i]![state] ?? 0);
      });
      m.redisUp.set(1);
    },
  };
}
