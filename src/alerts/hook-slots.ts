// Pure bookkeeping of the deliveries in flight per hook, so that one receiver that never answers holds
// at most its own share of the delivery worker's slots and the other hooks' notices still go out.
//
// Why this design: all notices share one `notify` queue (job ids are idempotency keys; jobs queued by
// an older version keep working; `sync` waits on one queue), and BullMQ has no per-group concurrency
// outside its Pro edition. So the worker runs `perHook` slots per configured hook, and a job whose
// hook already has `perHook` deliveries in flight goes back to the queue for a short while instead of
// waiting in a slot. A queue and worker per hook would isolate as well, at the price of two Redis
// connections per hook and a migration of the queued jobs.

/** Deliveries one hook may have in flight in one process. */
export const PER_HOOK_IN_FLIGHT = 2;

export class HookSlots {
  private readonly inFlight = new Map<string, number>();

  /** @param perHook - deliveries one hook may have in flight. @defaultValue PER_HOOK_IN_FLIGHT */
  constructor(readonly perHook = PER_HOOK_IN_FLIGHT) {
    if (!Number.isInteger(perHook) || perHook < 1) {
      throw new RangeError(`perHook must be a whole number ≥ 1, got ${perHook}`);
    }
  }

  /** Takes a slot for `hook`; false when it already has `perHook` deliveries in flight. */
  tryTake(hook: string): boolean {
    const n = this.inFlight.get(hook) ?? 0;
    if (n >= this.perHook) return false;
    this.inFlight.set(hook, n + 1);
    return true;
  }

  release(hook: string): void {
    const n = this.inFlight.get(hook) ?? 0;
    if (n <= 1) this.inFlight.delete(hook);
    else this.inFlight.set(hook, n - 1);
  }

  /** Hooks with deliveries in flight and how many (for log lines). */
  busy(): Record<string, number> {
    return Object.fromEntries(this.inFlight);
  }

  /** Worker slots for `hooks` configured hooks: each gets its own `perHook`, so none can starve another. */
  concurrency(hooks: number): number {
    return Math.max(1, hooks) * this.perHook;
  }
}

/**
 * How long a job waits before it tries its busy hook again: a second or two, jittered so that the jobs
 * of a hanging hook do not all come back at once. `random` is in [0, 1).
 */
export function busyHookDelayMs(random: number): number {
  return 1_000 + Math.floor(random * 1_000);
}
