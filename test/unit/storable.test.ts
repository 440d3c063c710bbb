// Pure: the rules of what an archive holds (src/values/storable.ts), by tables; and the JSON text of a
// value too deep for JSON.stringify (src/values/json-text.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/values/json-text.js';
import {
  guardianCounters,
  keyProblem,
  MAX_KEY_BYTES,
  MAX_NESTING,
  MAX_ROLLUP_KEY_BYTES,
  nestedDeeperThan,
  rollupKey,
  rollupValue,
  rowProblem,
  storableCounter,
  storableMessage,
  storableStatusCode,
  textProblem,
} from '../../src/values/storable.js';

const nest = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));

describe('numbers in integer columns', () => {
  it.each([
    [502, 502],
    [0, 0],
    [9999, 9999],
    ['502', 502],
    ['0042', 42],
    [10000, null],
    [-1, null],
    [502.5, null],
    [1e21, null],
    [2 ** 60, null],
    [Number.NaN, null],
    ['99999', null],
    ['5o2', null],
    ['', null],
    [null, null],
    [true, null],
  ])('status code %j → %j', (input, expected) => expect(storableStatusCode(input)).toBe(expected));

  it.each([
    [0, 0],
    [12, 12],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.MAX_SAFE_INTEGER + 1, null],
    [2 ** 63, null],
    [-3, null],
    [1.5, null],
    ['12', null],
    [null, null],
  ])('counter %j → %j', (input, expected) => expect(storableCounter(input)).toBe(expected));

  it('keeps the six Guardian counters as sent beside the columns that hold those that fit', () => {
    const { columns, counters } = guardianCounters({
      totalBlockedRequests: 2 ** 63,
      totalLoggedRequests: 7,
      totalRateLimited: -1,
      overviewPastTwentyEightDays: { a: 1 },
    });
    expect(columns).toEqual({
      total_requests_inspected: null,
      total_blocked_requests: null,
      total_logged_requests: 7,
      total_rate_limited: null,
      total_failed_request_validation: null,
      total_failed_authentication_enforcement: null,
    });
    expect(JSON.parse(counters!)).toEqual({
      totalRequestsInspected: null,
      totalBlockedRequests: 2 ** 63,
      totalLoggedRequests: 7,
      totalRateLimited: -1,
      totalFailedRequestValidation: null,
      totalFailedAuthenticationEnforcement: null,
    });
    expect(guardianCounters(null).counters).toBeNull();
  });
});

describe('text', () => {
  it.each([
    ['plain', null],
    ['a pair 😀', null],
    ['', null],
    ['a\u0000b', 'f: holds U+0000, which PostgreSQL cannot store in text'],
    ['id-\ud800', 'f: holds a lone surrogate (U+D800), which is not Unicode text'],
    ['\udc00 first', 'f: holds a lone surrogate (U+DC00), which is not Unicode text'],
    ['😀\ud83d', 'f: holds a lone surrogate (U+D83D), which is not Unicode text'],
  ])('%j → %j', (text, expected) => expect(textProblem('f', text)).toBe(expected));

  it('writes U+0000 and lone surrogates in a message as their escapes, pairs as they are', () => {
    expect(storableMessage('a\u0000b \ud800 😀 \udfff')).toBe('a\\u0000b \\ud800 😀 \\udfff');
    expect(storableMessage('plain')).toBe('plain');
    expect(textProblem('f', storableMessage('\ud800\u0000'))).toBeNull();
  });

  it('takes a logId up to MAX_KEY_BYTES bytes of UTF-8', () => {
    expect(keyProblem('x'.repeat(MAX_KEY_BYTES))).toBeNull();
    expect(keyProblem('é'.repeat(MAX_KEY_BYTES / 2))).toBeNull();
    expect(keyProblem('x'.repeat(MAX_KEY_BYTES + 1))).toBe(
      'logId: 2049 bytes long, longer than the 2048 bytes an entry key may hold',
    );
    expect(keyProblem('é'.repeat(MAX_KEY_BYTES / 2 + 1))).toMatch(/^logId: 2050 bytes long/);
  });

  it('names the first field of a row that cannot be stored, the key first', () => {
    const columns = {
      logId: ['ok', 'x'.repeat(3000), 'ok'],
      url: ['/a', '/\u0000', '/\u0000'],
      message: ['m', 'm', '\ud800'],
    };
    const fields = ['logId', 'url', 'message'];
    expect(rowProblem(columns, fields, 0)).toBeNull();
    expect(rowProblem(columns, fields, 1)).toMatch(/^logId: 3000 bytes long/);
    expect(rowProblem(columns, fields, 2)).toMatch(/^url: holds U\+0000/);
  });
});

describe('rollup keys', () => {
  it('keeps a value up to MAX_ROLLUP_KEY_BYTES, and shortens a longer one to a prefix and a hash', () => {
    const fits = 'é'.repeat(MAX_ROLLUP_KEY_BYTES / 2);
    expect(rollupKey(fits)).toBe(fits);
    const long = 'r'.repeat(300);
    const hash = createHash('sha256').update(long).digest('hex').slice(0, 16);
    expect(rollupKey(long)).toBe(`${'r'.repeat(200)}…${hash}`);
    expect(rollupKey(long.replace(/r$/, 's'))).not.toBe(rollupKey(long));
    // Whole characters only: a 4-byte character that would cross the 200th byte is left out.
    const emoji = rollupKey('😀'.repeat(100));
    expect(emoji.startsWith('😀'.repeat(50) + '…')).toBe(true);
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(MAX_ROLLUP_KEY_BYTES);
  });

  it('counts NULL as the key stand-in and numbers as they are', () => {
    expect(rollupValue(null, '')).toBe('');
    expect(rollupValue(undefined, 0)).toBe(0);
    expect(rollupValue(503, 0)).toBe(503);
    expect(rollupValue('r1', '')).toBe('r1');
  });
});

describe('nesting', () => {
  it.each([
    ['null', null, false],
    ['a string of brackets', '[[[', false],
    ['an empty array', [], false],
    ['MAX_NESTING arrays', nest(MAX_NESTING), false],
    ['MAX_NESTING + 1 arrays', nest(MAX_NESTING + 1), true],
    ['objects and arrays, MAX_NESTING in all', { a: { b: nest(MAX_NESTING - 2) } }, false],
    ['objects and arrays, MAX_NESTING + 1 in all', { a: { b: nest(MAX_NESTING - 1) } }, true],
  ])('%s: deeper than MAX_NESTING is %s', (_name, value, deeper) =>
    expect(nestedDeeperThan(value)).toBe(deeper),
  );

  it('walks 20,000 levels without recursing', () => expect(nestedDeeperThan(nest(20_000))).toBe(true));
});

describe('jsonText', () => {
  it.each([
    ['a scalar', 'x\u0000\ud800'],
    ['an object with odd keys', JSON.parse('{"__proto__":{"a":[1,"2",null,true]},"b":{},"c":[]}') as unknown],
    ['numbers', [0, -0, 1e21, 1.5e-300, 2 ** 60]],
    ['nothing', undefined],
  ])('writes %s as JSON.stringify does', (_name, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value) ?? 'undefined');
  });

  it('writes a value too deep for JSON.stringify, the same text', () => {
    const text = `{"a":${'['.repeat(20_000)}{"k":"\\u0000"}${']'.repeat(20_000)},"b":1}`;
    const value = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonText(value)).toBe(text);
  });
});
