// Values that each pass a type check but would fail (or misbehave) later are refused at start, with a
// line naming the key, the bound and an example.
import { describe, expect, it } from 'vitest';
import { parseConfig, TIMER_MAX_MS, type ConfigInput } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors/index.js';

/** The message parseConfig throws for `input`, or '' when it accepts it. */
function refusal(input: unknown): string {
  try {
    parseConfig(input);
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
}

const hook = { type: 'webhook', url: 'https://hooks.example.net/x' } as const;
const spike = { name: 's', type: 'spike', source: 'origin' } as const;

describe('every key is bounded', () => {
  it.each<[string, ConfigInput, RegExp]>([
    // Item 9: a lookback of 0 leaves every day partial, its last hours never fetched.
    [
      'schedule.originLookbackDays',
      { schedule: { originLookbackDays: 0 } },
      /at least 1 \(got 0\), e\.g\. 2/,
    ],
    [
      'schedule.shieldLookbackDays',
      { schedule: { shieldLookbackDays: 0 } },
      /at least 1 \(got 0\), e\.g\. 2/,
    ],
    // Item 17: values that failed later as "unexpected error".
    ['api.requestDeadline', { api: { requestDeadline: 0 } }, /at least 1s \(got 0ms\), e\.g\. "5m"/],
    [
      'api.requestDeadline',
      { api: { requestDeadline: '100000d' } },
      /at most 1d \(got 100000d\), e\.g\. "5m"/,
    ],
    ['schedule.refreshEvery', { schedule: { refreshEvery: 0 } }, /at least 1m \(got 0ms\), e\.g\. "1h"/],
    ['api.headersTimeout', { api: { headersTimeout: 1e20 } }, /at most 1h .*e\.g\. "30s"/],
    ['api.connectTimeout', { api: { connectTimeout: '0s' } }, /at least 1s/],
    ['api.bodyTimeout', { api: { bodyTimeout: '2h' } }, /at most 1h \(got 2h\)/],
    ['api.responseTimeout', { api: { responseTimeout: '500ms' } }, /at least 1s \(got 500ms\), e\.g\. "10m"/],
    ['api.maxResponseBytes', { api: { maxResponseBytes: 1e12 } }, /at most 1,073,741,824/],
    ['api.maxResponseBytes', { api: { maxResponseBytes: 10 } }, /at least 1,048,576 \(got 10\)/],
    ['api.retryAttempts', { api: { retryAttempts: 0 } }, /at least 1 \(got 0\), e\.g\. 6/],
    ['api.retryBaseDelay', { api: { retryBaseDelay: 0 } }, /at least 10ms/],
    ['api.retryMaxDelay', { api: { retryMaxDelay: '2h' } }, /at most 1h/],
    ['api.connections', { api: { connections: 0 } }, /at least 1/],
    ['api.pageCap', { api: { pageCap: 1e9 } }, /at most 10,000,000/],
    ['schedule.finalizeDelay', { schedule: { finalizeDelay: '2d' } }, /at most 1d/],
    ['schedule.guardianEvery', { schedule: { guardianEvery: '1s' } }, /at least 1m/],
    ['worker.concurrency', { worker: { concurrency: 1000 } }, /at most 256/],
    ['worker.pageThreads', { worker: { pageThreads: -1 } }, /at least 0/],
    ['worker.shutdownTimeout', { worker: { shutdownTimeout: 0 } }, /at least 1s/],
    ['worker.lease', { worker: { lease: '1s' } }, /at least 4s/],
    ['worker.jobAttempts', { worker: { jobAttempts: 0 } }, /at least 1/],
    ['worker.keepCompleted.count', { worker: { keepCompleted: { count: 0 } } }, /at least 100 \(got 0\)/],
    ['worker.keepFailed.age', { worker: { keepFailed: { age: 0 } } }, /at least 1m/],
    ['database.retentionDays', { database: { retentionDays: 1e6 } }, /at most 3650/],
    ['alerts.renotifyEvery', { alerts: { renotifyEvery: 0 } }, /at least 1m/],
    ['alerts.evaluateEvery', { alerts: { evaluateEvery: 0 } }, /at least 10s/],
    ['alerts.deliveryAttempts', { alerts: { deliveryAttempts: 0 } }, /at least 1/],
    ['alerts.retryDelay', { alerts: { retryDelay: 0 } }, /at least 100ms/],
    ['alerts.maxRetryDelay', { alerts: { maxRetryDelay: '30d' } }, /at most 1d/],
    ['alerts.hooks.ops.timeout', { alerts: { hooks: { ops: { ...hook, timeout: 0 } } } }, /at least 100ms/],
    ['alerts.rules[0].for', { alerts: { rules: [{ ...spike, for: '365d' }] } }, /at most 30d .*e\.g\. "10m"/],
    ['alerts.rules[0].window', { alerts: { rules: [{ ...spike, window: '30d' }] } }, /at most 7d/],
    ['alerts.rules[0].factor', { alerts: { rules: [{ ...spike, factor: 0 }] } }, /above 0/],
    ['alerts.rules[0].min', { alerts: { rules: [{ ...spike, min: 1e12 }] } }, /at most 1,000,000,000/],
    [
      'alerts.rules[0].maxAge',
      { alerts: { rules: [{ name: 'f', type: 'flatline', source: 'origin', maxAge: 0 }] } },
      /at least 1m/,
    ],
    [
      'alerts.rules[0].maxIncrease',
      {
        alerts: {
          rules: [{ name: 'g', type: 'guardian', counter: 'totalBlockedRequests', maxIncrease: -1 }],
        },
      },
      /at least 0/,
    ],
  ])('%s: %j', (key, input, message) => {
    const text = refusal(input);
    const line = text.split('\n').find((l) => l.startsWith(`  - ${key}: `));
    expect(line, text).toBeDefined();
    expect(line).toMatch(message);
  });

  // Node fires a longer timer after 1 ms, and AbortSignal.timeout throws past 2^32-1 ms.
  it.each<[string, (v: string) => ConfigInput]>([
    ['api.connectTimeout', (v) => ({ api: { connectTimeout: v } })],
    ['api.headersTimeout', (v) => ({ api: { headersTimeout: v } })],
    ['api.bodyTimeout', (v) => ({ api: { bodyTimeout: v } })],
    ['api.retryBaseDelay', (v) => ({ api: { retryBaseDelay: v } })],
    ['api.retryMaxDelay', (v) => ({ api: { retryMaxDelay: v } })],
    ['api.requestDeadline', (v) => ({ api: { requestDeadline: v } })],
    ['api.responseTimeout', (v) => ({ api: { responseTimeout: v } })],
    ['schedule.refreshEvery', (v) => ({ schedule: { refreshEvery: v } })],
    ['schedule.guardianEvery', (v) => ({ schedule: { guardianEvery: v } })],
    ['worker.shutdownTimeout', (v) => ({ worker: { shutdownTimeout: v } })],
    ['worker.lease', (v) => ({ worker: { lease: v } })],
    ['alerts.evaluateEvery', (v) => ({ alerts: { evaluateEvery: v } })],
    ['alerts.retryDelay', (v) => ({ alerts: { retryDelay: v } })],
    ['alerts.maxRetryDelay', (v) => ({ alerts: { maxRetryDelay: v } })],
    ['alerts.hooks.ops.timeout', (v) => ({ alerts: { hooks: { ops: { ...hook, timeout: v } } } })],
  ])('%s, which feeds a timer, stays within 2^31-1 ms', (key, input) => {
    expect(refusal(input(`${TIMER_MAX_MS + 1}ms`))).toContain(`  - ${key}: must be at most`);
  });

  it('accepts the defaults and values at the bounds', () => {
    expect(refusal({})).toBe('');
    expect(
      refusal({
        api: {
          requestDeadline: '1d',
          retryBaseDelay: '10ms',
          retryMaxDelay: '10ms',
          maxResponseBytes: 2 ** 30,
        },
        schedule: { originLookbackDays: 1, shieldLookbackDays: 1, finalizeDelay: 0 },
        database: { retentionDays: 1 },
      }),
    ).toBe('');
  });
});

describe('checks between keys', () => {
  it.each<[string, ConfigInput, string]>([
    [
      'retryBaseDelay above retryMaxDelay',
      { api: { retryBaseDelay: '1m', retryMaxDelay: '30s' } },
      '  - api.retryBaseDelay: must not be longer than api.retryMaxDelay (30s), got 1m',
    ],
    [
      'alerts.retryDelay above alerts.maxRetryDelay',
      { alerts: { retryDelay: '20m', maxRetryDelay: '10m' } },
      '  - alerts.retryDelay: must not be longer than alerts.maxRetryDelay (10m), got 20m',
    ],
    [
      'a headers timeout the deadline always beats',
      { api: { headersTimeout: '1h', requestDeadline: '10m' } },
      '  - api.headersTimeout: must be shorter than api.requestDeadline (10m), got 1h',
    ],
    [
      'a body timeout equal to the deadline',
      { api: { bodyTimeout: '5m' } },
      '  - api.bodyTimeout: must be shorter than api.requestDeadline (5m), got 5m',
    ],
    [
      'a body timeout the response timeout always beats',
      { api: { bodyTimeout: '2m', responseTimeout: '2m' } },
      '  - api.bodyTimeout: must be shorter than api.responseTimeout (2m), got 2m',
    ],
    [
      'a first retry delay no deadline leaves room for',
      { api: { retryBaseDelay: '10s', retryMaxDelay: '1m', requestDeadline: '10s' } },
      '  - api.retryBaseDelay: must be shorter than api.requestDeadline (10s), got 10s',
    ],
    [
      'a lookback too short for a pass to land after finalizeDelay',
      { schedule: { originLookbackDays: 1, refreshEvery: '1d', finalizeDelay: '1h' } },
      '  - schedule.originLookbackDays: 1 leaves 23h between schedule.finalizeDelay (1h)',
    ],
    [
      'the same for Shield',
      { schedule: { shieldLookbackDays: 1, refreshEvery: '12h', finalizeDelay: '13h' } },
      'set it to 2 or more',
    ],
    [
      'duplicate pull zones',
      { pullZones: [101, 5, 6, { id: 101, name: 'again' }] },
      '  - pullZones[3]: pullZones[0] and pullZones[3] both have id 101',
    ],
    [
      'duplicate shield zones',
      { shieldZones: [{ id: 201 }, 201] },
      '  - shieldZones[1]: shieldZones[0] and shieldZones[1] both have id 201',
    ],
    [
      'a status filter no status matches',
      { alerts: { rules: [{ ...spike, filter: { statusCodeMin: 500, statusCodeMax: 499 } }] } },
      '  - alerts.rules[0].filter.statusCodeMin: must not be above filter.statusCodeMax (499), got 500',
    ],
    [
      'a same-hour window longer than the day between its references',
      { alerts: { rules: [{ ...spike, window: '2d', reference: 'same-hour' }] } },
      '  - alerts.rules[0].window: must be at most 1d with reference "same-hour"',
    ],
  ])('%s', (_name, input, line) => {
    expect(refusal(input)).toContain(line);
  });

  it('a zone id may be both a pull zone and a shield zone', () => {
    expect(refusal({ pullZones: [101], shieldZones: [101] })).toBe('');
  });
});
