// The keys of a flush page, whichever form its store hands it in (history-store.ts FlushPage): as values
// (PostgreSQL), or framed as `<UTF-8 bytes>:<key text>\n` in one blob (SQLite), each key's parts as text.
import type { FlushPage } from '../../src/store/history-store.js';

export function flushPageKeys(page: FlushPage): string[][] {
  if (!('keyLines' in page)) return page.keys.map((k) => k.map((v) => String(v)));
  const bytes = Buffer.from(page.keyLines);
  const keys: string[][] = [];
  for (let at = 0; at < bytes.length;) {
    const colon = bytes.indexOf(0x3a, at);
    const length = Number(bytes.subarray(at, colon).toString('latin1'));
    const end = colon + 1 + length;
    if (bytes[end] !== 0x0a) throw new Error(`a key frame at byte ${at} does not end in a newline`);
    keys.push(
      bytes
        .subarray(colon + 1, end)
        .toString('utf8')
        .split('\u0000'),
    );
    at = end + 1;
  }
  return keys;
}
