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
    ['hasMoreData as text', { logs: [], hasMoreData: 'yes' }, 'hasMoreData: expected a boolean'],
    ['a continuationToken that is a number', { logs: [], continuationToken: 7 }, 'continuationToken'],
    ['errorResponse that is text', { logs: [], errorResponse: 'no' }, 'errorResponse: expected an object'],
  ])('a broken outer shape fails the whole page, naming the field: %s', (_name, body, message) => {
    expect(() => parseShieldEventLogPage(body)).toThrow(ShapeError);
    expect(() => parseShieldEventLogPage(body)).toThrow(message);
  });

  // One bad entry used to fail its whole page (and the rest of the day): each is now judged alone.
  it.each([
    ['an entry that is not an object', 3, 'the entry is not an object: number 3'],
    ['null', null, 'the entry is not an object: null'],
    ['a missing logId', { timestamp: 1 }, 'logId: expected a non-empty string, got nothing'],
    ['a null logId', { ...good, logId: null }, 'logId: expected a non-empty string, got null'],
    ['an empty logId', { ...good, logId: '' }, 'logId: expected a non-empty string, got ""'],
    ['a numeric logId', { ...good, logId: 7 }, 'logId: expected a non-empty string, got number 7'],
    ['a missing timestamp', { logId: 'a' }, 'timestamp: expected milliseconds since the epoch, got nothing'],
    [
      'a null timestamp',
      { ...good, timestamp: null },
      'timestamp: expected milliseconds since the epoch, got null',
    ],
    [
      'a timestamp as text',
      { ...good, timestamp: '1728952065848' },
      'timestamp: expected milliseconds since the epoch, got "1728952065848"',
    ],
    [
      'a fractional timestamp',
      { ...good, timestamp: 1.5 },
      'timestamp: expected milliseconds since the epoch, got number 1.5',
    ],
    [
      'a negative timestamp',
      { ...good, timestamp: -1 },
      'timestamp: expected milliseconds since the epoch, got number -1',
    ],
  ])('an unkeyable entry is set aside with its JSON and the reason: %s', (_name, entry, reason) => {
    const page = parseShieldEventLogPage({ logs: [good, entry, { ...good, logId: 'b' }] });
    expect(page.logs.map((e) => e.logId)).toEqual(['a', 'b']);
    expect(page.rejected).toEqual([{ position: 1, raw: JSON.stringify(entry), reason }]);
  });

  it.each([
    ['a null log', { ...good, log: null }, { log: null }],
    ['a missing log', { logId: 'a', timestamp: 1, labels: {} }, { log: null }],
    ['a log that is an object', { ...good, log: { a: 1 } }, { log: '{"a":1}' }],
    ['null labels', { ...good, labels: null }, { labels: null }],
    ['a null label value', { ...good, labels: { a: null } }, { labels: { a: null } }],
    ['a nested label value', { ...good, labels: { a: { b: [1] } } }, { labels: { a: '{"b":[1]}' } }],
    ['a boolean label value', { ...good, labels: { a: true } }, { labels: { a: 'true' } }],
    ['labels that are an array', { ...good, labels: [1, 2] }, { labels: { $raw: '[1,2]' } }],
  ])('a keyable entry with odd fields is kept, without loss: %s', (_name, entry, expected) => {
    const page = parseOriginErrorLogResponse({ logs: [entry] });
    expect(page.rejected).toEqual([]);
    expect(page.logs[0]).toMatchObject(expected);
  });
});
