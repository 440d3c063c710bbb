import { describe, expect, it } from 'vitest';
import {
  parseOriginErrorLogResponse,
  parseShieldEventLogPage,
  ShapeError,
} from '../../src/api/schemas/log-pages.js';

const good = { logId: 'a', timestamp: 1728952065848, log: '{}', labels: { ErrorCode: 'x' } };

describe('log page validation', () => {
  it('accepts a documented Shield page', () => {
    const page = parseShieldEventLogPage({
      logs: [good],
      hasMoreData: true,
      continuationToken: 't/+=',
      startToken: 's',
      errorResponse: { success: true, message: null, errorKey: null },
    });
    expect(page).toMatchObject({ hasMoreData: true, continuationToken: 't/+=', startToken: 's' });
    expect(page.logs).toHaveLength(1);
  });

  it.each([
    ['logs: null is an empty page', { logs: null }, 0],
    ['missing logs is an empty page', {}, 0],
    ['missing log and labels become null', { logs: [{ logId: 'a', timestamp: 1 }] }, 1],
    ['unknown fields are tolerated', { logs: [{ ...good, extra: 1 }], whatever: true }, 1],
  ])('%s', (_name, body, n) => {
    expect(parseOriginErrorLogResponse(body).logs).toHaveLength(n);
  });

  it('turns numeric label values into strings', () => {
    const r = parseOriginErrorLogResponse({ logs: [{ ...good, labels: { StatusCode: 502 } }] });
    expect(r.logs[0]!.labels).toEqual({ StatusCode: '502' });
  });

  it.each([
    ['a body that is not an object', [], 'expected an object, got an array'],
    ['logs not an array', { logs: {} }, 'logs: expected an array, got an object'],
    ['an entry that is not an object', { logs: [good, 3] }, 'logs[1]: expected an object'],
    ['a missing logId', { logs: [{ timestamp: 1 }] }, 'logs[0].logId: expected a non-empty string'],
    [
      'a timestamp as text',
      { logs: [{ ...good, timestamp: '1728952065848' }] },
      'logs[0].timestamp: expected milliseconds',
    ],
    ['a fractional timestamp', { logs: [{ ...good, timestamp: 1.5 }] }, 'logs[0].timestamp'],
    ['a log that is an object', { logs: [{ ...good, log: {} }] }, 'logs[0].log: expected a string'],
    [
      'a label that is an object',
      { logs: [{ ...good, labels: { a: {} } }] },
      'logs[0].labels.a: expected a string',
    ],
    ['hasMoreData as text', { logs: [], hasMoreData: 'yes' }, 'hasMoreData: expected a boolean'],
  ])('names the field: %s', (_name, body, message) => {
    expect(() => parseShieldEventLogPage(body)).toThrow(ShapeError);
    expect(() => parseShieldEventLogPage(body)).toThrow(message);
  });
});
