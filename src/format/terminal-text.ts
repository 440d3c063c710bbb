// Pure: any text made safe for a person's terminal. Archived log content is written by attackers (a WAF
// log holds their URLs, headers and bodies), and so may be an API's error body: an ESC or C1 character
// in it could move the cursor, repaint or clear the screen, set the window title, plant a link (OSC 8)
// or, on some terminals, answer back; a bidirectional override could make a line read other than it
// is. Each such character is written as a visible escape instead (`\x1b`, `\x9b`, `\u202e`), so the
// person sees that it was there and nothing acts on it. Backslashes are left as they are: an escape is
// for reading, not for parsing back (the JSON and CSV outputs carry the exact text).

export interface SafeTextOptions {
  /** Keep line feeds as line breaks (a layout newline, e.g. a stack trace). @defaultValue false */
  newlines?: boolean;
}

/**
 * What is never written raw: C0 controls (tab, CR and LF included), DEL and C1; the Arabic letter mark,
 * the left-to-right and right-to-left marks, the embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069); the line and paragraph separators; and lone surrogates (they cannot be encoded).
 */
const UNSAFE_SOURCE =
  '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]' +
  '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSAFE = new RegExp(UNSAFE_SOURCE, 'g');
/** The same, for one character at a time. */
const UNSAFE_CHAR = new RegExp(`^(?:${UNSAFE_SOURCE})$`);

/** Printable ASCII only: nothing to escape, one column per character (the common case, tested first). */
const PLAIN = /^[\u0020-\u007e]*$/;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The visible form of one unsafe character: `\t`, `\n`, `\r`, `\x1b` below U+0100, `\u202e` above. */
export function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const c = ch.charCodeAt(0);
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/** `text` with every unsafe character escaped (line feeds kept when `opts.newlines`). */
export function safeText(text: string, opts: SafeTextOptions = {}): string {
  if (PLAIN.test(text)) return text;
  return text.replace(UNSAFE, (ch) => (opts.newlines && ch === '\n' ? ch : escapeChar(ch)));
}

/**
 * Columns a code point takes: 0 for combining marks and zero-width characters, 2 for East Asian wide
 * and fullwidth ones (the main blocks: Hangul Jamo, CJK, Hangul syllables, fullwidth forms, emoji),
 * 1 otherwise. An approximation of wcwidth() good enough to keep columns aligned in common text.
 */
export function codePointWidth(c: number): number {
  if (c < 0x300) return 1;
  if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200d) || c === 0xfeff) return 0;
  if (c >= 0xfe00 && c <= 0xfe0f) return 0; // variation selectors
  if (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0x303e) ||
    (c >= 0x3041 && c <= 0x33ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns `text` takes on a terminal; `text` is already safe (see safeText). */
export function textWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += codePointWidth(ch.codePointAt(0)!);
  return width;
}

/** The pieces of `text` once escaped: a character as it is, or one whole escape, with its width. */
function* units(text: string): Generator<[string, number]> {
  for (const ch of text) {
    if (UNSAFE_CHAR.test(ch)) {
      const escaped = escapeChar(ch);
      yield [escaped, escaped.length];
    } else yield [ch, codePointWidth(ch.codePointAt(0)!)];
  }
}

/**
 * `text` escaped (safeText) and then, when wider than `max` columns, cut to `max` columns ending in `…`.
 * The cut falls between characters and escapes, never inside one (no half `\x1b`, no half surrogate
 * pair). `max` Infinity leaves the text whole.
 */
export function fitText(text: string, max: number): string {
  if (PLAIN.test(text)) return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
  const kept: string[] = [];
  const widths: number[] = [];
  let width = 0;
  for (const [piece, w] of units(text)) {
    kept.push(piece);
    widths.push(w);
    width += w;
    // Once past the limit the text is cut: the pieces beyond it do not matter.
    if (width > max) break;
  }
  if (width <= max) return kept.join('');
  while (kept.length > 0 && width > max - 1) {
    kept.pop();
    width -= widths.pop()!;
  }
  return `${kept.join('')}…`;
}

/** Pads safe `text` with spaces to `width` columns, on the right (or on the left when `right`). */
export function padText(text: string, width: number, right = false): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return right ? fill + text : text + fill;
}

/** What JSON.stringify leaves raw that a terminal acts on (it escapes C0 and lone surrogates itself). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (JSON.stringify's) with DEL, C1, the bidirectional controls and the line separators written
 * as `\u` escapes: the same JSON value, exactly, and nothing in it a terminal would act on.
 */
export function safeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
