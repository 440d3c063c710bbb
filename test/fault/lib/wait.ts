// Polling with a deadline: the only way the fault scenarios wait, so that none can hang.
import { setTimeout as sleep } from 'node:timers/promises';

export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

/**
 * Polls `probe` until it returns a value other than undefined; throws WaitTimeout naming `what` after
 * `timeoutMs`. The probe's own errors propagate: a failure is never mistaken for "not yet".
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  opts: { timeoutMs: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline)
      throw new WaitTimeout(`timed out after ${opts.timeoutMs} ms waiting for ${what}`);
    await sleep(opts.everyMs ?? 50);
  }
}

/** Resolves with the promise's value, or with `undefined` once `ms` have passed. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export { sleep };
