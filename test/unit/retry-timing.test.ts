import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDecision, type RetryPolicy } from '../../src/api/retry-timing.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['delta seconds', '5', 5000],
    ['zero seconds', '0', 0],
    ['padded seconds', ' 12 ', 12000],
    ['HTTP date in the future', 'Sun, 22 Nov 2026 12:00:30 GMT', 30000],
    ['HTTP date in the past', 'Sun, 22 Nov 2026 11:59:00 GMT', 0],
    ['negative seconds', '-3', undefined],
    ['fractional seconds', '1.5', undefined],
    ['garbage', 'soon', undefined],
    ['absent', undefined, undefined],
    ['first of several values', ['2', '9'], 2000],
  ] as const)('%s', (_name, header, expected) => {
    expect(parseRetryAfter(header as string | string[] | undefined, NOW)).toBe(expected);
  });
});

describe('retryDecision', () => {
  const policy: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 350, deadlineMs: 10_000 };

  it.each([
    // attempt, random, expected delay: step = min(350, 100·2^(attempt-1)); delay = step/2 + step/2·random
    [1, 0, 50],
    [1, 0.999, 100],
    [2, 0.5, 150],
    [3, 0, 175], // step capped at 350
    [3, 1, 350],
  ])('attempt %i with jitter %f waits %i ms', (attempt, random, delayMs) => {
    expect(retryDecision(policy, { attempt, elapsedMs: 0, random })).toEqual({ retry: true, delayMs });
  });

  it('honours Retry-After exactly, even above the backoff cap', () => {
    expect(retryDecision(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 2000, random: 0.7 })).toEqual({
      retry: true,
      delayMs: 2000,
    });
  });

  it('stops when the attempts are used up', () => {
    const d = retryDecision(policy, { attempt: 4, elapsedMs: 0, random: 0 });
    expect(d.retry).toBe(false);
    expect(d).toMatchObject({ reason: 'gave up after 4 attempts' });
  });

  it('stops when the wait would pass the deadline', () => {
    const d = retryDecision(policy, { attempt: 1, elapsedMs: 9_000, retryAfterMs: 1_500, random: 0 });
    expect(d.retry).toBe(false);
    expect(d).toMatchObject({ reason: expect.stringContaining('deadline') as string });
  });
});
