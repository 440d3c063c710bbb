// Pure: a guess at a Shield page's paging fields from its raw bytes, without parsing the page. The
// next page's token is only known once a page is decoded; with a guess, its request can go out while
// this page is still being decoded (decode-pool.ts) and the previous one stored. A guess is only ever
// a guess: fetch-pages.ts checks it against the decoded page and discards the request when it differs.

export interface PagingGuess {
  hasMoreData: boolean;
  continuationToken: string | null;
}

const TOKEN_KEY = Buffer.from('"continuationToken"');
const MORE_KEY = Buffer.from('"hasMoreData"');
const COLON = 0x3a;
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function skipSpace(buf: Uint8Array, at: number): number {
  while (at < buf.length && SPACE.has(buf[at]!)) at++;
  return at;
}

function startsWith(buf: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (buf[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Where the value of the last `"key":` starts, or -1. */
function lastValueOf(buf: Buffer, key: Buffer): number {
  for (let end = buf.length; ;) {
    const found = buf.lastIndexOf(key, end);
    if (found < 0) return -1;
    const colon = skipSpace(buf, found + key.length);
    if (buf[colon] === COLON) return skipSpace(buf, colon + 1);
    end = found - 1; // the same text as a value, not a key: look further back
    if (end < 0) return -1;
  }
}

/** The JSON value after the last `"key":`: a string, true, false or null; undefined when there is none. */
function valueAfter(buf: Buffer, key: Buffer): string | boolean | null | undefined {
  const at = lastValueOf(buf, key);
  if (at < 0) return undefined;
  if (startsWith(buf, at, 'null')) return null;
  if (startsWith(buf, at, 'true')) return true;
  if (startsWith(buf, at, 'false')) return false;
  if (buf[at] !== QUOTE) return undefined;
  for (let end = at + 1; end < buf.length; end++) {
    if (buf[end] === BACKSLASH) end++;
    else if (buf[end] === QUOTE) {
      try {
        return JSON.parse(buf.toString('utf8', at, end + 1)) as string;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The paging fields a Shield page body seems to carry, or null when they cannot be found cheaply (the
 * page is then decoded before the next request, as without a guess).
 */
export function guessPaging(body: ArrayBuffer): PagingGuess | null {
  const buf = Buffer.from(body);
  const more = valueAfter(buf, MORE_KEY);
  const token = valueAfter(buf, TOKEN_KEY);
  if (typeof more !== 'boolean' || token === undefined || typeof token === 'boolean') return null;
  return { hasMoreData: more, continuationToken: token };
}
