// Text for a person's terminal: every control, C1 and bidirectional character shows as an escape, and a
// cut never falls inside one.
import { describe, expect, it } from 'vitest';
import {
  codePointWidth,
  fitText,
  padText,
  safeJson,
  safeText,
  textWidth,
} from '../../src/format/terminal-text.js';
import { RAW_CONTROL } from '../support/terminal.js';

describe('safeText', () => {
  it.each([
    ['plain ASCII unchanged', 'GET /index.html?a=1&b=2', 'GET /index.html?a=1&b=2'],
    ['ESC of a CSI sequence', '\x1b[2J\x1b[Hwiped', '\\x1b[2J\\x1b[Hwiped'],
    [
      'an OSC 8 link, BEL-terminated',
      '\x1b]8;;http://evil\x07click\x1b]8;;\x07',
      '\\x1b]8;;http://evil\\x07click\\x1b]8;;\\x07',
    ],
    ['tab, CR, LF by name', 'a\tb\rc\nd', 'a\\tb\\rc\\nd'],
    ['NUL and DEL', 'a\u0000b\u007f', 'a\\x00b\\x7f'],
    ['C1 CSI and OSC', 'x\u009b31m\u009dy', 'x\\x9b31m\\x9dy'],
    ['right-to-left override', 'invoice\u202Efdp.exe', 'invoice\\u202efdp.exe'],
    [
      'isolates, marks and the Arabic letter mark',
      '\u2066\u2067\u2068\u2069\u200e\u200f\u061c',
      '\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c',
    ],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['lone surrogates, not pairs', 'id-\ud800 id-\udc00 😀', 'id-\\ud800 id-\\udc00 😀'],
    ['non-ASCII text unchanged', 'Zürich 東京 naïve', 'Zürich 東京 naïve'],
  ])('%s', (_name, input, expected) => {
    expect(safeText(input)).toBe(expected);
    expect(safeText(input)).not.toMatch(RAW_CONTROL);
  });

  it('keeps line feeds when asked (a layout newline), escaping the rest', () => {
    expect(safeText('one\ntwo\r\n\x1b[1m', { newlines: true })).toBe('one\ntwo\\r\n\\x1b[1m');
  });
});

describe('fitText', () => {
  it.each([
    ['short text whole', 'abc', 5, 'abc'],
    ['exactly the limit', 'abcde', 5, 'abcde'],
    ['cut with an ellipsis', 'abcdefgh', 5, 'abcd…'],
    ['escapes count as what they show', '\x1b[31mred', 20, '\\x1b[31mred'],
    ['a cut never splits an escape', 'ab\x1bcdef', 5, 'ab…'],
    ['a cut after a whole escape', 'ab\x1bcdef', 7, 'ab\\x1b…'],
    ['a cut never splits a surrogate pair', 'ab😀😀', 4, 'ab…'],
    ['wide characters take two columns', '東京都庁', 5, '東京…'],
    ['no limit', 'a\u202eb', Infinity, 'a\\u202eb'],
  ])('%s', (_name, input, max, expected) => {
    expect(fitText(input, max)).toBe(expected);
    expect(textWidth(fitText(input, max))).toBeLessThanOrEqual(max);
  });

  it('never leaves a partial escape, whatever the limit', () => {
    const text = 'x\x1b[1m\u009by\u202ez\ud800';
    for (let max = 1; max <= 40; max++) {
      const fitted = fitText(text, max);
      expect(textWidth(fitted)).toBeLessThanOrEqual(max);
      // What is left before the ellipsis is a prefix of the whole escaped text, cut at a unit boundary.
      const kept = fitted.endsWith('…') ? fitted.slice(0, -1) : fitted;
      expect(safeText(text).startsWith(kept)).toBe(true);
      expect(kept).not.toMatch(/\\(x[0-9a-f]?|u[0-9a-f]{0,3})$/);
    }
  });
});

describe('widths', () => {
  it.each([
    [0x41, 1],
    [0x301, 0],
    [0x200b, 0],
    [0x6771, 2],
    [0xac00, 2],
    [0xff21, 2],
    [0x1f600, 2],
    [0xe9, 1],
  ])('U+%s is %i columns', (c, w) => expect(codePointWidth(c)).toBe(w));

  it('pads by columns, not by UTF-16 units', () => {
    expect(padText('東京', 6)).toBe('東京  ');
    expect(padText('😀', 4, true)).toBe('  😀');
    expect(textWidth('e\u0301')).toBe(1);
  });
});

describe('safeJson', () => {
  it('escapes what JSON.stringify leaves raw, and the value stays the same', () => {
    const value = { 'k\u202e': ['\x1b[2J', 'a\u009bb\u007f', 'x\u2028y', '\ud800', 'Zürich 東京'] };
    const text = safeJson(JSON.stringify(value));
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toBe('{"k\\u202e":["\\u001b[2J","a\\u009bb\\u007f","x\\u2028y","\\ud800","Zürich 東京"]}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
