// The overview's figures besides the ledger calendar (docs/CONSOLE.md): ingestion lag per zone, the
// alerts firing, the history's size and bytes per entry — each a statement of the one query layer, so
// each equals what `edgelog query` answers (the three over one snapshot: answerEach) — and the ingest
// queue's job counts when Redis answers (absent, not an error, when it does not or the console was not
// told where it is).
import { FIRING_ALERTS_SQL, HISTORY_SIZE_SQL, ZONE_LAG_SQL } from '../history/console-statements.js';
import type { QueueStatus } from '../queue/queue-status.js';
import { answerEach, answerRows, type AnswerBounds } from './answers.js';
import type { QueryLane } from './query-lane.js';

/** Reads the ingest queue's state: null when Redis does not answer. */
export type ReadQueue = () => Promise<QueueStatus | null>;

/** How long the overview waits for Redis before saying the queue is not reachable. */
const QUEUE_WAIT_MS = 2000;

export interface OverviewContext {
  queries: QueryLane;
  bounds: AnswerBounds;
  /** null: the console was not told where the queue is. */
  queue: ReadQueue | null;
  now: () => number;
}

interface LagRow {
  source: string;
  zone_id: number;
  covered_until: number | null;
  last_complete_day: string | null;
}

interface SizeRow {
  days: number;
  entries: number;
  bytes: number;
  last_merge_at: number | null;
}

export type QueueHealth = { up: false } | ({ up: true } & Pick<QueueStatus, 'redis' | 'counts'>);

export async function overview(ctx: OverviewContext): Promise<unknown> {
  const now = ctx.now();
  // The queue is asked meanwhile: Redis is not the query lane's.
  const queue = ctx.queue === null ? Promise.resolve(null) : queueHealth(ctx.queue);
  const answers = await answerEach(
    ctx.queries,
    [ZONE_LAG_SQL, FIRING_ALERTS_SQL, HISTORY_SIZE_SQL].map((sql) => ({ sql, limit: 0 })),
    ctx.bounds.timeoutMs,
  );
  const lag = answerRows<LagRow>(answers[0]!);
  const firing = answerRows<Record<string, unknown>>(answers[1]!);
  const [size] = answerRows<SizeRow>(answers[2]!);
  return {
    now,
    zones: lag.map((r) => ({
      source: r.source,
      zone: r.zone_id,
      coveredUntil: r.covered_until,
      lagMs: r.covered_until === null ? null : Math.max(0, now - r.covered_until),
      lastCompleteDay: r.last_complete_day,
    })),
    firing,
    history: size && {
      ...size,
      bytesPerEntry: size.entries > 0 ? Math.round((size.bytes / size.entries) * 10) / 10 : null,
    },
    queue: await queue,
  };
}

async function queueHealth(read: ReadQueue): Promise<QueueHealth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUEUE_WAIT_MS)));
  try {
    const status = await Promise.race([read().catch(() => null), late]);
    return status === null ? { up: false } : { up: true, redis: status.redis, counts: status.counts };
  } finally {
    clearTimeout(timer);
  }
}
