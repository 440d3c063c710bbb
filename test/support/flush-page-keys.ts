// The keys of a flush page, whichever form its store hands it in (history-store.ts FlushPage): as values,
// or framed as `<UTF-8 bytes>:<key text>\n` in one blob (both stores' flush pages), each key's parts as
// text; and the key checksum of the part a page alone makes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDb } from '../../src/history/duckdb.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { writePart } from '../../src/history/part-file.js';
import { SHIELD_SHAPE } from '../../src/store/history-columns.js';
import type { FlushPage } from '../../src/store/history-store.js';

/**
 * The key checksum of the Shield part writePart makes of `page` alone, its keys read back from the file
 * (part-file.ts: it refuses a part whose keys differ from the page's).
 */
export async function shieldPartChecksum(page: FlushPage): Promise<string> {
  const duck = await openDuckDb();
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-flush-part-'));
  try {
    const written = await writePart(duck, {
      shape: SHIELD_SHAPE,
      dir: join(dir, 'part'),
      lo: 1n,
      hi: 2n,
      pages: (async function* () {
        yield await Promise.resolve(page);
      })(),
      parquet: DEFAULT_PARQUET_OPTIONS.shield_event_logs,
    });
    if (written === null) throw new Error('writePart wrote no part of the page');
    return written.checksum;
  } finally {
    duck.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

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
