import { describe, expect, it } from 'vitest';
import { decodeToken, encodeToken, type TokenPosition } from '../../src/simulator/tokens.js';
import type { Day } from '../../src/time/utc-day.js';

const at = (zone: number, day: string, segment: number, index: number, page: number): TokenPosition => ({
  zone,
  day: day as Day,
  segment,
  index,
  page,
});

describe('continuation tokens', () => {
  it.each([
    ['first entry of a day', at(201, '2026-11-22', 0, 0, 1)],
    ['deep into the base segment', at(201, '2026-11-22', 0, 999_000, 1000)],
    ['a spike segment', at(203, '2026-01-31', 4, 17, 3)],
    ['a large zone id', at(9_007_199_254, '1999-12-31', 0, 5, 2)],
    ['the epoch day', at(1, '1970-01-01', 0, 0, 1)],
  ])('round-trips %s', (_name, position) => {
    const token = encodeToken(position);
    expect(decodeToken(token)).toEqual(position);
    // What a correct client sends is the percent-encoded segment; the server sees it decoded.
    expect(decodeToken(decodeURIComponent(encodeURIComponent(token)))).toEqual(position);
  });

  it.each(['/', '+', '=', '?', '#', '%', '&'])('always contains %s, so clients must percent-encode', (ch) => {
    for (const p of [at(201, '2026-11-22', 0, 0, 1), at(202, '2026-11-21', 3, 12_345, 13)]) {
      expect(encodeToken(p)).toContain(ch);
    }
  });

  it('names the place, not an offset: a later page of the same place gives a different token', () => {
    expect(encodeToken(at(201, '2026-11-22', 0, 1000, 2))).not.toBe(
      encodeToken(at(201, '2026-11-22', 0, 2000, 3)),
    );
  });

  it.each([
    ['empty', ''],
    ['garbage', 'hello world'],
    ['missing decoration', encodeToken(at(201, '2026-11-22', 0, 1000, 2)).slice(0, 20)],
    ['not base64', `!!!!${encodeToken(at(201, '2026-11-22', 0, 0, 1)).slice(4)}`],
    ['raw unencoded (the client split it)', encodeToken(at(201, '2026-11-22', 0, 0, 1)).split('/')[0]!],
  ])('rejects %s', (_name, token) => {
    expect(decodeToken(token)).toBeUndefined();
  });

  it('rejects a token whose payload was altered (check digits)', () => {
    const token = encodeToken(at(201, '2026-11-22', 0, 1000, 2));
    const payload = Buffer.from(token.split('?')[0]!, 'base64').toString('latin1');
    const forged = payload.replace('.1000.', '.1001.');
    const forgedToken = `${Buffer.from(forged, 'latin1').toString('base64')}${token.slice(token.indexOf('?'))}`;
    expect(decodeToken(forgedToken)).toBeUndefined();
  });
});
