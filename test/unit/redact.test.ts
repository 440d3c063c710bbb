import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSecrets,
  displayUrl,
  redact,
  redactError,
  registerConfigSecrets,
  registerSecret,
  registerUrlCredentials,
} from '../../src/redact.js';
import { HttpStatusError } from '../../src/errors/index.js';

afterEach(() => clearSecrets());

describe('redact', () => {
  it('replaces a registered secret, and its URL- and JSON-quoted forms', () => {
    registerSecret('k3y/with "quotes"');
    expect(redact('key k3y/with "quotes" here')).toBe('key [REDACTED] here');
    expect(redact(`?k=${encodeURIComponent('k3y/with "quotes"')}`)).toBe('?k=[REDACTED]');
    expect(redact(JSON.stringify({ m: 'k3y/with "quotes"' }))).toBe('{"m":"[REDACTED]"}');
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    registerSecret('abcd');
    registerSecret('abcdefgh');
    expect(redact('x abcdefgh y abcd')).toBe('x [REDACTED] y [REDACTED]');
  });

  it('ignores values too short to be keys (they would garble text)', () => {
    registerSecret('ab');
    expect(redact('ab cab')).toBe('ab cab');
  });

  it('removes credentials from any URL, registered or not', () => {
    expect(redact('GET https://bob:s3cret@api.example/x failed')).toBe(
      'GET https://[REDACTED]@api.example/x failed',
    );
    expect(displayUrl('redis://:pw1234@127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('registers the password of a URL, not its user name (postgres://postgres:…@ stays readable)', () => {
    registerUrlCredentials('postgres://postgres:pw-9876@db.example:5432/edgelog');
    expect(displayUrl('postgres://postgres:pw-9876@db.example:5432/edgelog')).toBe(
      'postgres://db.example:5432/edgelog',
    );
    expect(redact('role "postgres" said pw-9876')).toBe('role "postgres" said [REDACTED]');
  });

  it('redacts an error in place: message, stack, body, own fields and causes', () => {
    registerSecret('the-access-key');
    const cause = new Error('socket said the-access-key');
    const err = new HttpStatusError('HTTP 401 AccessKey the-access-key is not valid', {
      status: 401,
      body: { message: 'AccessKey the-access-key is not valid' },
      context: {},
      cause,
    });
    redactError(err);
    expect(JSON.stringify({ m: err.message, s: err.stack, b: err.body, c: cause.message })).not.toContain(
      'the-access-key',
    );
  });

  it('registers what a configuration holds', () => {
    registerConfigSecrets({
      api: {
        accessKey: 'acc-key-1',
        baseUrl: 'https://u:apipass@a',
        originLogUrl: 'https://b',
        videoUrl: 'https://c',
      },
      redis: { url: 'redis://:redispass@127.0.0.1:6379' },
      alerts: {
        hooks: {
          a: { type: 'webhook', url: 'https://h', secret: 'hmac-secret' },
          b: { type: 'slack', url: 'https://hooks.slack.com/services/T0/B0/XYZ' },
          c: { type: 'webhook', url: 'https://ops:hookpass@h', headers: { 'X-Api-Key': 'api-key-c' } },
          d: { type: 'webhook', url: 'https://h', bearerToken: 'bearer-d' },
        },
      },
    });
    const basic = Buffer.from('ops:hookpass').toString('base64');
    const text = `acc-key-1 apipass redispass hmac-secret services/T0/B0/XYZ hookpass ${basic} api-key-c bearer-d`;
    expect(redact(text)).toBe(Array(9).fill('[REDACTED]').join(' '));
  });
});
