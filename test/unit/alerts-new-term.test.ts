// The pure parts of new-term rules: path prefixes, which window is judged, how new values are named.
import { describe, expect, it } from 'vitest';
import { describeNewValues, planNewTerm } from '../../src/alerts/new-term.js';
import { rollupKey } from '../../src/values/storable.js';
import fc from 'fast-check';
import { pathPrefix, pathPrefixes, TermCounter } from '../../src/store/terms.js';

const H = 3_600_000;
const D = 24 * H;

describe('pathPrefix', () => {
  it.each([
    ['https://cdn.example.net/a/b/c?x=1', 1, '/a'],
    ['https://cdn.example.net/a/b/c?x=1', 2, '/a/b'],
    ['https://cdn.example.net/a/b/c?x=1', 3, '/a/b/c'],
    ['https://cdn.example.net/a/b/c?x=1', 3, '/a/b/c'],
    ['/a/b?q=/c/d', 3, '/a/b'],
    ['/a#frag/b', 2, '/a'],
    ['/a?x#y', 2, '/a'],
    ['https://host', 1, '/'],
    ['https://host?x=1', 1, '/'],
    ['//a//b///c', 2, '/a/b'],
    ['a/b', 1, '/a'],
    ['HTTP://Host:8080/A/b', 1, '/A'],
    ['/', 2, '/'],
    ['/a/b', 3, '/a/b'],
    ['/wp-admin/\u001b[2J/x', 2, '/wp-admin/\u001b[2J'],
  ])('%j at depth %i is %j', (url, depth, prefix) => {
    expect(pathPrefix(url, depth)).toBe(prefix);
  });
});

describe('pathPrefixes', () => {
  // The rule written plainly (segments split on '/', empties dropped): the hot path must agree with it
  // on every URL, the shapes its slice-only shortcut takes and the ones it leaves to the general case.
  const plainly = (url: string, depth: number): string[] => {
    const path = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '').split(/[?#]/)[0]!;
    const segments = path.split('/').filter((s) => s !== '');
    return Array.from({ length: depth }, (_, d) =>
      segments.length === 0 ? '/' : `/${segments.slice(0, d + 1).join('/')}`,
    );
  };
  const part = fc.constantFrom('/', '//', 'a', 'bc', '?', '#', 'x=1', '.', 'é', '\u001b');
  const url = fc
    .tuple(
      fc.constantFrom('', 'https://h', 'HTTP://Host:8080', 'a://', 'h'),
      fc.array(part, { maxLength: 12 }),
    )
    .map(([head, parts]) => head + parts.join(''));

  it('agrees with the plain rule on any URL, at every depth', () => {
    fc.assert(
      fc.property(url, fc.integer({ min: 1, max: 4 }), (u, depth) => {
        expect(pathPrefixes(u, depth)).toEqual(plainly(u, depth));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('TermCounter', () => {
  it('counts plain fields and three path depths per row, skipping missing values, bounding long ones', () => {
    const c = new TermCounter();
    const long = `/${'é'.repeat(300)}`;
    c.add(
      {
        n: 2,
        timestamp: [10 * H + 5, 10 * H + 9],
        url: [`https://h${long}/x`, null],
        plain: [
          ['FR', 'FR'],
          [null, null],
          ['', ''],
        ],
      },
      ['country', 'asn', 'method'],
    );
    const rows = [...c.entries()].map((e) => [e.hour, e.field, e.value, e.count]);
    expect(rows).toEqual([
      [10 * H, 'country', 'FR', 2],
      [10 * H, 'path:1', rollupKey(long), 1],
      [10 * H, 'path:2', rollupKey(`${long}/x`), 1],
      [10 * H, 'path:3', rollupKey(`${long}/x`), 1],
    ]);
    expect(Buffer.byteLength(rows[1]![2] as string)).toBeLessThanOrEqual(256);
  });

  it('sums the rows of values that share a key (URLs with one path), whichever calls bring the rows', () => {
    const urls = ['/a/b?x=1', 'https://h/a/b?x=2#f', '/a/c', null, '', '/a/b?x=1'];
    const codes = ['e1', 'e1', null, 'e2', '', 'e1'];
    const status = [504, 504, 502, null, 504, 504];
    const at = (i: number) => 10 * H + i * 60_000 * 20; // 10:00, 10:20, 10:40, 11:00, …
    const byRow = new TermCounter();
    for (let i = 0; i < urls.length; i++)
      byRow.add({ n: 1, timestamp: [at(i)], url: [urls[i]!], plain: [[codes[i]!], [status[i]!]] }, [
        'error_code',
        'status_code',
      ]);
    const byColumn = new TermCounter();
    byColumn.add(
      { n: urls.length, timestamp: urls.map((_, i) => at(i)), url: urls, plain: [codes, status] },
      ['error_code', 'status_code'],
    );
    const lines = (c: TermCounter) =>
      [...c.entries()].map((e) => `${e.hour / H} ${e.field} ${e.value} ${e.count}`).sort();
    expect(lines(byRow)).toEqual([
      '10 error_code e1 2',
      '10 path:1 /a 3',
      '10 path:2 /a/b 2',
      '10 path:2 /a/c 1',
      '10 path:3 /a/b 2',
      '10 path:3 /a/c 1',
      '10 status_code 502 1',
      '10 status_code 504 2',
      '11 error_code e1 1',
      '11 error_code e2 1',
      '11 path:1 /a 1',
      '11 path:2 /a/b 1',
      '11 path:3 /a/b 1',
      '11 status_code 504 2',
    ]);
    expect(lines(byColumn)).toEqual(lines(byRow));
  });
});

describe('planNewTerm', () => {
  const T = Date.parse('2026-11-22T00:00:00Z');
  const day = (offset: number) => new Date(T + offset * D).toISOString().slice(0, 10);
  const params = { windowMs: H, lookbackMs: 2 * D };

  it('judges the latest complete window when it and its whole lookback are archived', () => {
    const coverage = new Map([
      [day(-2), T - D],
      [day(-1), T],
      [day(0), T + 10.5 * H],
    ]);
    expect(planNewTerm(params, coverage, T + 11 * H)).toEqual({
      kind: 'ready',
      window: { from: T + 9 * H, to: T + 10 * H },
      lookbackFrom: T + 9 * H - 2 * D,
    });
  });

  it('is unknown while the lookback reaches before what is archived (a young archive calls nothing new)', () => {
    const coverage = new Map([
      [day(-1), T],
      [day(0), T + 10.5 * H],
    ]);
    expect(planNewTerm(params, coverage, T + 11 * H)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('lookback') as string,
    });
  });

  it('is unknown when nothing is archived, and when the lookback has a hole', () => {
    expect(planNewTerm(params, new Map(), T)).toMatchObject({ kind: 'unknown' });
    const gap = new Map([
      [day(-3), T - 2 * D],
      [day(-2), T - D],
      [day(0), T + 10.5 * H],
    ]);
    expect(planNewTerm(params, gap, T + 11 * H)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('lookback') as string,
    });
  });

  it('never judges a window the clock has not finished, even when the ledger says more', () => {
    const coverage = new Map([
      [day(-2), T - D],
      [day(-1), T],
      [day(0), T + D],
    ]);
    expect(planNewTerm(params, coverage, T + 5.5 * H)).toMatchObject({
      kind: 'ready',
      window: { from: T + 4 * H, to: T + 5 * H },
    });
  });
});

describe('describeNewValues', () => {
  it('quotes each value escaped for a terminal, most frequent first as given, and caps the list', () => {
    const values = [
      { value: 'FR', count: 9 },
      { value: '\u001b]0;owned\u0007', count: 3 },
      { value: 'a\u202eb', count: 1 },
    ];
    expect(describeNewValues(values, 3)).toBe('"FR" (9), "\\x1b]0;owned\\x07" (3), "a\\u202eb" (1)');
    expect(describeNewValues(values, 12, 2)).toBe('"FR" (9), "\\x1b]0;owned\\x07" (3) and 10 more');
  });
});
