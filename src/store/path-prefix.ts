// Pure: a URL's path prefixes as term_hourly keys them (src/store/terms.ts says why). Apart from terms.ts,
// so that the SQL functions every connection registers (sqlite/term-functions.ts) load nothing else.
const SCHEME_AND_HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The first `depth` segments of a URL's path: `https://h/a/b/c?x=1` → `/a/b` at depth 2; empty segments
 * are skipped (`//a` is `/a`), and a URL with none gives `/`.
 */
export function pathPrefix(url: string, depth: number): string {
  return pathPrefixes(url, depth)[depth - 1]!;
}

/** pathPrefix at depths 1 to `maxDepth`, from one reading of the URL (the writers' hot path). */
export function pathPrefixes(url: string, maxDepth: number): string[] {
  let path = url.replace(SCHEME_AND_HOST, '');
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  const out: string[] = [];
  let prefix = '';
  let at = 0;
  while (out.length < maxDepth && at <= path.length) {
    const end = path.indexOf('/', at);
    const stop = end < 0 ? path.length : end;
    if (stop > at) {
      prefix += `/${path.slice(at, stop)}`;
      out.push(prefix);
    }
    if (end < 0) break;
    at = end + 1;
  }
  // Fewer segments than asked: the deeper prefixes are the whole path.
  const whole = prefix === '' ? '/' : prefix;
  while (out.length < maxDepth) out.push(whole);
  return out;
}
