// Waiting for a state of a process the test does not own (a PM2 daemon, a Prometheus server) by polling
// it: an error of the probe (a port not listening yet) counts as "not yet", and is shown on time-out.
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `fn` every 200 ms until it gives a value other than undefined; throws naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  let last: unknown;
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(200)) {
    const v = await fn().catch((err: unknown) => void (last = err));
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what} (last: ${String(last)})`);
}
