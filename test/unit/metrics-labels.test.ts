// The pure parts of the metrics: label values from fixed sets, day job outcomes, days at risk.
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  EdgelogError,
  HttpStatusError,
  NetworkError,
  ResponseError,
  TimeoutError,
} from '../../src/errors/index.js';
import { InterruptedError, LeaseBusyError } from '../../src/errors/index.js';
import { daysAtRisk } from '../../src/monitoring/at-risk.js';
import { dayJobOutcome } from '../../src/telemetry/day-outcome.js';
import { retryReason, statusClass } from '../../src/telemetry/labels.js';
import type { DayState } from '../../src/store/sqlite/ledger.js';

const status = (n: number) => new HttpStatusError(`HTTP ${n}`, { status: n, body: null, context: {} });

describe('statusClass', () => {
  it.each([
    [200, '2xx'],
    [204, '2xx'],
    [301, '3xx'],
    [401, '4xx'],
    [429, '4xx'],
    [503, '5xx'],
    [null, 'error'],
    [600, 'error'],
    [199, 'error'],
  ])('%j → %s', (s, cls) => expect(statusClass(s)).toBe(cls));
});

describe('retryReason', () => {
  it.each<[string, unknown, string]>([
    ['429', status(429), 'rate_limited'],
    ['502', status(502), 'server_error'],
    ['408', status(408), 'other'],
    ['a timeout', new TimeoutError('t', { retryable: true }), 'timeout'],
    ['a reset', new NetworkError('n', { retryable: true }), 'network'],
    ['a truncated body', new ResponseError('malformed-json', 'm'), 'bad_body'],
    ['anything else', new Error('x'), 'other'],
  ])('%s → %s', (_what, err, reason) => expect(retryReason(err)).toBe(reason));
});

describe('dayJobOutcome', () => {
  const result = (outcome: 'complete' | 'partial' | 'incomplete' | 'expired', skipped?: true) => ({
    result: { outcome, ...(skipped ? { skipped } : {}) },
  });
  it.each<[string, Parameters<typeof dayJobOutcome>[0], boolean, string]>([
    ['a complete pass', result('complete'), false, 'complete'],
    ['a partial pass', result('partial'), false, 'partial'],
    ['an incomplete pass', result('incomplete'), true, 'incomplete'],
    ['an expired day', result('expired'), false, 'expired'],
    ['a day fetched since the job was made', result('complete', true), false, 'skipped'],
    ['a day another run holds', { error: new LeaseBusyError('job-1', 0) }, false, 'deferred'],
    ['a shutdown', { error: new InterruptedError() }, true, 'interrupted'],
    ['a retryable error, attempts left', { error: status(503) }, false, 'retrying'],
    ['a retryable error, last attempt', { error: status(503) }, true, 'failed'],
    [
      'a permanent error',
      { error: new AuthError('401', { status: 401, body: null, context: {} }) },
      false,
      'failed',
    ],
    ['a permanent edgelog error', { error: new EdgelogError('bad') }, false, 'failed'],
    ['an unknown error, attempts left (BullMQ retries it)', { error: new Error('disk') }, false, 'retrying'],
  ])('%s → %s', (_what, end, finalAttempt, outcome) => {
    expect(dayJobOutcome(end, finalAttempt)).toBe(outcome);
  });
});

describe('daysAtRisk', () => {
  const H = 3_600_000;
  const base = { lookbackDays: 2, finalizeDelayMs: H, refreshEveryMs: H };
  const states = (o: Record<string, DayState>) => new Map(Object.entries(o));
  it.each<[string, number, Record<string, DayState>, string[]]>([
    [
      'every day complete',
      Date.parse('2026-11-22T12:00Z'),
      { '2026-11-20': 'complete', '2026-11-21': 'complete' },
      [],
    ],
    // Yesterday is not due before finalizeDelay + refreshEvery past midnight.
    [
      'yesterday partial at 01:30',
      Date.parse('2026-11-22T01:30Z'),
      { '2026-11-20': 'complete', '2026-11-21': 'partial' },
      [],
    ],
    [
      'yesterday partial at 02:00',
      Date.parse('2026-11-22T02:00Z'),
      { '2026-11-20': 'complete', '2026-11-21': 'partial' },
      ['2026-11-21'],
    ],
    ['a day never fetched', Date.parse('2026-11-22T12:00Z'), { '2026-11-21': 'complete' }, ['2026-11-20']],
    [
      'failed and incomplete days',
      Date.parse('2026-11-22T12:00Z'),
      { '2026-11-20': 'failed', '2026-11-21': 'incomplete' },
      ['2026-11-20', '2026-11-21'],
    ],
    [
      'an expired day is lost, not at risk',
      Date.parse('2026-11-22T12:00Z'),
      { '2026-11-20': 'expired', '2026-11-21': 'complete' },
      [],
    ],
    [
      'today is never at risk',
      Date.parse('2026-11-22T23:59Z'),
      { '2026-11-20': 'complete', '2026-11-21': 'complete', '2026-11-22': 'running' },
      [],
    ],
    [
      'a day before the lookback is not counted',
      Date.parse('2026-11-22T12:00Z'),
      { '2026-11-19': 'failed', '2026-11-20': 'complete', '2026-11-21': 'complete' },
      [],
    ],
  ])('%s', (_what, now, s, risky) => {
    expect(daysAtRisk({ ...base, now, states: states(s) })).toEqual(risky);
  });
});
