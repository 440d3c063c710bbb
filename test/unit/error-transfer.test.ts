import { describe, expect, it } from 'vitest';
import {
  EdgelogError,
  HttpStatusError,
  NetworkError,
  PagingError,
  WindowExpiredError,
} from '../../src/errors/index.js';
import { fromTransferable, toTransferable } from '../../src/errors/transfer.js';

// What crosses a thread boundary is what postMessage would carry: a structured clone.
const across = (err: unknown) => fromTransferable(structuredClone(toTransferable(err)));

describe('errors across threads', () => {
  it('keeps the class, fields and context of an HTTP status error', () => {
    const sent = new HttpStatusError('HTTP 503', {
      status: 503,
      body: { statusCode: 503 },
      retryAfterMs: 2000,
      context: { operation: 'shieldEventLogs', zone: 7, date: '2026-11-22' },
    });
    const got = across(sent);
    expect(got).toBeInstanceOf(HttpStatusError);
    expect(got).toBeInstanceOf(EdgelogError);
    expect(got).toMatchObject({
      name: 'HttpStatusError',
      message: 'HTTP 503',
      status: 503,
      body: { statusCode: 503 },
      retryAfterMs: 2000,
      retryable: true,
      context: { operation: 'shieldEventLogs', zone: 7, date: '2026-11-22', status: 503 },
    });
    expect(got.stack).toBe(sent.stack);
  });

  it('keeps the classes the ingestor decides on', () => {
    const expired = new WindowExpiredError('outside the window', { status: 401, body: null, context: {} });
    expect(across(expired)).toBeInstanceOf(WindowExpiredError);
    const paging = new PagingError('token-loop', 'loops', { context: { page: 3 } });
    expect(across(paging)).toMatchObject({ reason: 'token-loop', retryable: false, context: { page: 3 } });
    expect(across(paging)).toBeInstanceOf(PagingError);
  });

  it('keeps a cause chain, with the cause’s code', () => {
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const got = across(new NetworkError('request failed', { cause, retryable: true }));
    expect(got).toBeInstanceOf(NetworkError);
    expect(got).toMatchObject({ retryable: true });
    expect(got.cause).toBeInstanceOf(Error);
    expect(got.cause).toMatchObject({ message: 'socket hang up', code: 'ECONNRESET' });
  });

  it('turns anything thrown into an Error', () => {
    const got = across('plain text');
    expect(got).toBeInstanceOf(Error);
    expect(got.message).toBe('plain text');
  });
});
