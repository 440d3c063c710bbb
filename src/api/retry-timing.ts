// Pure retry timing: how long to wait before the next attempt, or whether to stop.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Delay before the second attempt; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Overall bound, from the first attempt, on the request including its retries. */
  deadlineMs: number;
}

/**
 * Parses a Retry-After header into milliseconds from `nowMs`.
 * - delta-seconds ("120") → 120 000 ms;
 * - an HTTP date → the time until it (0 when it is already past);
 * - anything else (absent, negative, garbage) → undefined, so normal backoff applies.
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^-?\d+(\.\d+)?$/.test(text)) return undefined; // negative or fractional seconds are not valid
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface RetryDecisionInput {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  /** Milliseconds since the first attempt started. */
  elapsedMs: number;
  /** What the server asked for, if anything (Retry-After). */
  retryAfterMs?: number | undefined;
  /** A number in [0, 1): the jitter source (Math.random in production, fixed in tests). */
  random: number;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Decides whether and when to retry a retryable failure.
 * - A server's Retry-After is honoured exactly (no jitter: it is an instruction, not a guess).
 * - Otherwise exponential backoff with "equal jitter": half the step fixed, half random, so a fleet of
 *   workers does not retry in lockstep yet never retries immediately.
 * - No retry when the attempts are used up, or when the wait would end past the deadline.
 */
export function retryDecision(policy: RetryPolicy, input: RetryDecisionInput): RetryDecision {
  if (input.attempt >= policy.attempts)
    return { retry: false, reason: `gave up after ${input.attempt} attempts` };
  let delayMs: number;
  if (input.retryAfterMs !== undefined) {
    delayMs = input.retryAfterMs;
  } else {
    const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (input.attempt - 1));
    delayMs = Math.round(step / 2 + (step / 2) * input.random);
  }
  if (input.elapsedMs + delayMs > policy.deadlineMs) {
    return {
      retry: false,
      reason: `the next attempt (in ${delayMs} ms) would pass the ${policy.deadlineMs} ms deadline`,
    };
  }
  return { retry: true, delayMs };
}
