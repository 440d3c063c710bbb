// Closing a BullMQ queue, worker or event stream sends QUIT and waits for the answer (and a worker first
// waits for its jobs in hand, which wait for Redis to record how they ended). With Redis away, ioredis
// holds those commands until it reconnects: an unbounded wait that would keep a stopping process alive
// for as long as the outage lasts.
import { setTimeout as sleep } from 'node:timers/promises';

/** What BullMQ's Queue, Worker and QueueEvents offer for it. */
export interface Closable {
  close(): Promise<void>;
  disconnect(): Promise<void> | void;
}

/**
 * Closes `c`, or, when that has not finished within `ms`, drops its connections (the commands still
 * waiting on them fail, so the jobs in hand end). Never throws, and takes at most about 2 × `ms`.
 * Resolves true when it closed cleanly.
 * @param ms @defaultValue 1000
 */
export async function closeOrDrop(c: Closable, ms = 1_000): Promise<boolean> {
  const closed = await within(c.close(), ms);
  if (!closed) await dropWithin(c, ms);
  return closed;
}

/**
 * Drops `c`'s connections, waiting at most `ms`: BullMQ waits for each client's `end` event, which a
 * client between two reconnection attempts never emits. Never throws.
 * @param ms @defaultValue 1000
 */
export async function dropWithin(c: Pick<Closable, 'disconnect'>, ms = 1_000): Promise<void> {
  await within(
    Promise.resolve().then(() => c.disconnect()),
    ms,
  );
}

/** True when `p` settles (either way) within `ms`; the timer does not outlive the wait. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([p.then(ok, ok), late]);
  } finally {
    clearTimeout(timer);
  }
}

const ok = () => true as const;

/**
 * How long a worker with no job in hand gets to finish closing before its connections are dropped: with
 * Redis up it takes milliseconds; with Redis away it never finishes (ioredis strands the blocking command
 * that was in flight when the connection dropped, and BullMQ waits for it).
 */
export const IDLE_GRACE_MS = 2_000;

/**
 * Resolves once `idle()` has held for `graceMs` without a break (checked every 50 ms), or as soon as
 * `signal` fires.
 */
export async function idleFor(idle: () => boolean, graceMs: number, signal: AbortSignal): Promise<void> {
  let since: number | undefined;
  while (!signal.aborted) {
    const now = Date.now();
    since = idle() ? (since ?? now) : undefined;
    if (since !== undefined && now - since >= graceMs) return;
    await sleep(50, undefined, { signal }).catch(() => undefined);
  }
}
