// The bench's input: Shield pages exactly as the simulator serves them, and the rows edgelog parses
// from them.
import { decodeShieldPage } from '../src/ingest/decode-page.js';
import type { ShieldBatch } from '../src/store/rows.js';
import { Simulator } from '../src/simulator/index.js';
import type { Day } from '../src/time/utc-day.js';

export const BENCH_DAY = '2026-11-20' as Day;
const AT = Date.parse('2026-11-23T00:00:00Z');

/** `pages` page bodies of `pageSize` entries, as JSON text (what arrives over the wire). */
export function shieldPageTexts(pages: number, pageSize: number): string[] {
  const sim = new Simulator({ entriesPerDay: pages * pageSize, pageSize, now: () => AT });
  const entries = sim.entries('shield', 201, BENCH_DAY, AT);
  const texts: string[] = [];
  for (let p = 0; p < pages; p++) {
    const logs = entries
      .slice(p * pageSize, (p + 1) * pageSize)
      .map(({ malformed: _m, raw: _r, odd: _o, keyable: _k, ...e }) => e);
    texts.push(
      JSON.stringify({
        logs,
        hasMoreData: p < pages - 1,
        continuationToken: `t${p + 1}`,
        startToken: `t${p}`,
      }),
    );
  }
  return texts;
}

/** What ingestion does with a page body before storing it: outer JSON, validation, embedded log JSON, labels. */
export function parsePage(text: string): ShieldBatch {
  return decodeShieldPage(text).batch;
}
