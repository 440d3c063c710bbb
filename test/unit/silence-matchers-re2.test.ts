// Silence matchers as Alertmanager reads them (issue 28, item 1): a value keeps its backslashes but for
// Alertmanager's own escapes (\" \\ \n), so `\w` and `\.` reach the regular expression; the expression is
// RE2's, anchored at both ends; and matching runs in linear time, so a label an attacker wrote cannot
// stall the evaluation (the reproduction, then at the label bound).
import { describe, expect, it } from 'vitest';
import { MAX_LABEL_CHARS } from '../../src/alerts/label-bounds.js';
import {
  formatMatcher,
  matchesAll,
  MatcherError,
  parseMatcher,
  unescapeValue,
} from '../../src/alerts/silence-matchers.js';
import { seriesLabels } from '../../src/alerts/silences.js';

describe('matcher values, unescaped as Alertmanager does', () => {
  it.each([
    [String.raw`url=~"https://x/(\w+)*\.php"`, String.raw`https://x/(\w+)*\.php`],
    [String.raw`url=~"https://x/(\\w+)*\\.php"`, String.raw`https://x/(\w+)*\.php`],
    [String.raw`msg="say \"hi\""`, 'say "hi"'],
    [String.raw`msg="a\nb"`, 'a\nb'],
    [String.raw`path=~"C:\\dir\d+"`, String.raw`C:\dir\d+`],
    [String.raw`path=a\b`, String.raw`a\b`],
    ['path=trailing\\', 'trailing\\'],
    ['path=a b', 'a b'],
    ['ns:name=x', 'x'],
  ])('%s → %s', (text, value) => {
    expect(parseMatcher(text).value).toBe(value);
  });

  it('unescapes \\" \\\\ \\n only; any other backslash is kept, a trailing one too', () => {
    expect(unescapeValue('\\"\\\\\\n\\w\\.\\')).toBe('"\\\n\\w\\.\\');
  });

  it('a value with backslashes, quotes and a line feed reads back the same', () => {
    const m = { name: 'url', op: '=' as const, value: 'a\\.b "c"\nd\\' };
    expect(formatMatcher(m)).toBe(String.raw`url="a\\.b \"c\"\nd\\"`);
    expect(parseMatcher(formatMatcher(m))).toEqual(m);
  });

  it('an escaped dot matches a dot only', () => {
    const m = parseMatcher(String.raw`url=~"https://x/\w+\.php"`);
    expect(matchesAll([m], seriesLabels('r', { url: 'https://x/abc.php' }))).toBe(true);
    expect(matchesAll([m], seriesLabels('r', { url: 'https://x/abcXphp' }))).toBe(false);
    expect(matchesAll([m], seriesLabels('r', { url: 'https://x/a-c.php' }))).toBe(false);
  });

  it("RE2's syntax: refuses what RE2 refuses (backreferences, lookarounds)", () => {
    expect(() => parseMatcher(String.raw`url=~"(a)\1"`)).toThrow(MatcherError);
    expect(() => parseMatcher('url=~"(?=a)a"')).toThrow(/not a regular expression/);
    expect(parseMatcher(String.raw`url=~"\pL+"`).value).toBe(String.raw`\pL+`);
  });
});

describe('matching in linear time', () => {
  const silence = parseMatcher(String.raw`url=~"https://x/(\\w+)*\\.php"`);
  const timed = (url: string) => {
    const start = performance.now();
    const matched = matchesAll([silence], seriesLabels('hostile-urls', { url }));
    return { matched, ms: performance.now() - start };
  };

  it("the issue's reproduction: 34 letters and a `!` under a second", () => {
    const { matched, ms } = timed(`https://x/${'a'.repeat(34)}!`);
    expect(matched).toBe(false);
    expect(ms).toBeLessThan(1000);
  });

  it('a label at the bound, and one far past it (matched as cut), under a second each', () => {
    for (const url of [
      `https://x/${'a'.repeat(MAX_LABEL_CHARS - 11)}!`,
      `https://x/${'a'.repeat(2_000_000)}!`,
    ]) {
      const { matched, ms } = timed(url);
      expect(matched).toBe(false);
      expect(ms).toBeLessThan(1000);
    }
    expect(timed(`https://x/${'a'.repeat(100)}.php`).matched).toBe(true);
  });
});
