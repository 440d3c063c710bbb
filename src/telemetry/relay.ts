// A page thread makes API requests with a client of its own: its request metrics are relayed to the main
// thread as messages (as its log lines are), where the one registry counts them. Counting at the
// thread boundary instead would see pages, not requests: neither retries nor each attempt's duration.
import type { RequestMetrics, RetryReason } from './events.js';

export type RequestEvent =
  | { kind: 'request'; operation: string; status: number | null; seconds: number }
  | { kind: 'retry'; operation: string; reason: RetryReason };

/** RequestMetrics that hand each event to `send` (e.g. postMessage to the main thread). */
export function relayRequestMetrics(send: (event: RequestEvent) => void): RequestMetrics {
  return {
    request: (operation, status, seconds) => send({ kind: 'request', operation, status, seconds }),
    retry: (operation, reason) => send({ kind: 'retry', operation, reason }),
  };
}

/** Applies a relayed event to the main thread's metrics. */
export function replayRequestEvent(target: RequestMetrics, event: RequestEvent): void {
  if (event.kind === 'request') target.request(event.operation, event.status, event.seconds);
  else target.retry(event.operation, event.reason);
}
