import { describe, expect, it } from 'vitest';
import { decideNextPage, type PageSummary } from '../../src/ingest/paging.js';

const state = (requestedToken: string, pages: number, seen: string[] = [], pageCap = 100) => ({
  requestedToken,
  pages,
  seenTokens: new Set(seen),
  pageCap,
});
const page = (
  entries: number,
  hasMoreData: boolean | null,
  continuationToken: string | null,
): PageSummary => ({
  entries,
  hasMoreData,
  continuationToken,
});

describe('decideNextPage', () => {
  it.each([
    [
      'more data and a new token',
      page(10, true, 'b'),
      state('a', 1, ['', 'a']),
      { kind: 'next', token: 'b' },
    ],
    ['no more data', page(10, false, 'b'), state('a', 2), { kind: 'done' }],
    ['hasMoreData missing (null)', page(10, null, 'b'), state('a', 2), { kind: 'done' }],
    ['last page may be empty', page(0, false, null), state('a', 2), { kind: 'done' }],
  ] as const)('%s', (_name, p, s, expected) => {
    expect(decideNextPage(p, s)).toEqual(expected);
  });

  it.each([
    // More data announced with no token to ask for it: the day cannot be complete (it used to end it).
    ['more data, empty token', page(10, true, ''), state('a', 2), 'more-without-token'],
    ['more data, null token', page(10, true, null), state('a', 2), 'more-without-token'],
    [
      'a token with a lone surrogate (cannot be sent)',
      page(10, true, 'ab\ud800'),
      state('a', 2),
      'unusable-token',
    ],
    ['token equal to the one requested', page(10, true, 'a'), state('a', 3, ['', 'x', 'a']), 'token-loop'],
    ['token seen earlier in the pass', page(10, true, 'x'), state('a', 3, ['', 'x', 'a']), 'token-loop'],
    ['empty page that claims more', page(0, true, 'b'), state('a', 2, ['', 'a']), 'empty-page-with-more'],
    ['page cap reached', page(10, true, 'c'), state('b', 5, ['', 'a', 'b'], 5), 'page-cap'],
  ] as const)('fails on %s', (_name, p, s, reason) => {
    const d = decideNextPage(p, s);
    expect(d).toMatchObject({ kind: 'error', reason });
  });

  it('a page cap that is not yet reached lets paging go on', () => {
    expect(decideNextPage(page(10, true, 'c'), state('b', 4, ['', 'b'], 5))).toEqual({
      kind: 'next',
      token: 'c',
    });
  });
});
