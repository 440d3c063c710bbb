import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { parseFaultSpec } from '../../src/simulator/fault-spec.js';

describe('parseFaultSpec', () => {
  it.each([
    ['503', { kind: '503' }],
    ['reset', { kind: 'reset' }],
    ['429:rate=0.1,retryAfter=1', { kind: '429', rate: 0.1, retryAfter: '1' }],
    [
      '429:retryAfter=Sun, 22 Nov 2026 12:00:30 GMT',
      { kind: '429', retryAfter: 'Sun, 22 Nov 2026 12:00:30 GMT' },
    ],
    [
      '429:retryAfter=Sun, 22 Nov 2026 12:00:30 GMT,times=1',
      { kind: '429', retryAfter: 'Sun, 22 Nov 2026 12:00:30 GMT', times: 1 },
    ],
    ['loop:afterPage=3', { kind: 'loop', afterPage: 3 }],
    ['empty-more:afterPage=1,times=1', { kind: 'empty-more', afterPage: 1, times: 1 }],
    ['503:times=2,operation=shieldEventLogs', { kind: '503', times: 2, operation: 'shieldEventLogs' }],
    ['slow:delayMs=250,rate=1', { kind: 'slow', delayMs: 250, rate: 1 }],
    ['truncate:operation=originErrorLogs', { kind: 'truncate', operation: 'originErrorLogs' }],
    [' 500 : times = 4 ', { kind: '500', times: 4 }],
    ['502:rate=.5', { kind: '502', rate: 0.5 }],
    ['html', { kind: 'html' }],
    ['gzip:times=1,operation=originErrorLogs', { kind: 'gzip', times: 1, operation: 'originErrorLogs' }],
    ['slow-body', { kind: 'slow-body' }],
    ['slow-body:chunks=5,delayMs=100', { kind: 'slow-body', chunks: 5, delayMs: 100 }],
    ['more:rate=0.5', { kind: 'more', rate: 0.5 }],
    ['null-fields:operation=shieldEventLogs', { kind: 'null-fields', operation: 'shieldEventLogs' }],
  ])('%s', (spec, expected) => {
    expect(parseFaultSpec(spec)).toEqual(expected);
  });

  it.each([
    ['', /unknown kind ""/],
    ['404', /unknown kind "404".*one of 429, 500/],
    ['503:times', /"times" is not key=value/],
    ['503:times=-1', /times must be a whole number/],
    ['503:times=1.5', /times must be a whole number/],
    ['503:rate=1.5', /rate must be a number from 0 to 1/],
    ['503:rate=abc', /rate must be a number from 0 to 1/],
    ['503:retryAfter=1', /503 takes no "retryAfter"/],
    ['loop:delayMs=5', /loop takes no "delayMs"/],
    ['503:times=1,rate=0.5', /times or rate, not both/],
    ['503:times=1,times=2', /times is given twice/],
    ['503:operation=listZones', /unknown operation "listZones"/],
    ['loop:afterPage=0', /afterPage counts from 1/],
    ['429:retryAfter=', /retryAfter is empty/],
    ['slow-body:chunks=0', /chunks must be at least 1/],
    ['slow-body:chunks=x', /chunks must be a whole number/],
    ['html:delayMs=5', /html takes no "delayMs"/],
    ['gzip:chunks=2', /gzip takes no "chunks"/],
    ['more:operation=shieldEventLogs', /more applies only to originErrorLogs/],
    ['null-fields:operation=edgeScript', /null-fields applies only to shieldEventLogs and originErrorLogs/],
  ])('rejects %j', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(UsageError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });
});
