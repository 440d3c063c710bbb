// Property tests of page decoding: for any page the API may send, every element is either a row (when it
// has a usable key, by an independent judge) or a rejected entry at its position, in order; an origin
// answer decodes the same however its bytes are split; the paging guess is never wrong about a page
// whose paging fields come last.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeShieldPage, OriginBodyDecoder } from '../../src/ingest/decode-page.js';
import { guessPaging } from '../../src/ingest/peek-paging.js';
import type { OriginBatch, ShieldBatch } from '../../src/store/rows.js';
import { entries, errorResponse, pageText, paging } from './arbitraries.js';
import { expectSorted, plainlyStorable } from './judge.js';
import { propertyParams } from './runs.js';

const page = fc.record({
  logs: fc.oneof({ weight: 8, arbitrary: entries }, fc.constant(null), fc.constant(undefined)),
  paging,
  errorResponse,
  logsFirst: fc.boolean(),
  indent: fc.constantFrom(0, 2),
});

/** What a batch must hold for the elements of `logs`, judged without the decoder's own code. */
function expectBatchOf(batch: OriginBatch | ShieldBatch, logs: unknown[]): void {
  expectSorted(batch, logs);
  // Valid entries are decoded: the judge's plainly storable ones are rows, every one.
  expect(batch.logId.length).toBeGreaterThanOrEqual(logs.filter(plainlyStorable).length);
}

/** Feeds `text` to an origin decoder in pieces cut at `cuts`; returns every batch and the paging. */
function decodeOrigin(text: string, cuts: number[], batchSize: number) {
  const decoder = new OriginBodyDecoder(batchSize);
  const batches: OriginBatch[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    batches.push(...decoder.push(text.slice(from, cut)));
    from = cut;
  }
  batches.push(...decoder.push(text.slice(from)));
  const end = decoder.end();
  return { batches: [...batches, end.batch], paging: end.paging };
}

/** The batches of one origin answer as one (positions count across the answer). */
function joined(batches: OriginBatch[]): OriginBatch {
  const out = { ...batches[0]! };
  for (const key of Object.keys(out) as Array<keyof OriginBatch>) {
    (out as Record<string, unknown[]>)[key] = batches.flatMap((b) => b[key] as unknown[]);
  }
  return out;
}

describe('page decoding (property)', () => {
  it('a Shield page: each element a row or a rejected entry, in order; paging fields as sent', () => {
    fc.assert(
      fc.property(page, (p) => {
        const text = pageText(p.logs, { ...p.paging, errorResponse: p.errorResponse }, p);
        const decoded = decodeShieldPage(text);
        const logs = (JSON.parse(text) as { logs?: unknown[] | null }).logs ?? [];
        expectBatchOf(decoded.batch, logs);
        expect(decoded.hasMoreData).toBe(p.paging.hasMoreData ?? null);
        expect(decoded.continuationToken).toBe(p.paging.continuationToken ?? null);
        expect(decoded.startToken).toBe(p.paging.startToken ?? null);
      }),
      propertyParams(300),
    );
  });

  it('an origin answer decodes the same however it is split, in batches of any size', () => {
    fc.assert(
      fc.property(
        page,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 5 }),
        (p, cuts, size) => {
          const text = pageText(p.logs, p.paging, p);
          const { batches, paging: fields } = decodeOrigin(text, cuts, size);
          expect(batches.slice(0, -1).every((b) => b.logId.length + b.rejected.length === size)).toBe(true);
          const logs = (JSON.parse(text) as { logs?: unknown[] | null }).logs ?? [];
          expectBatchOf(joined(batches), logs);
          expect(fields).toEqual({
            hasMoreData: p.paging.hasMoreData ?? null,
            continuationToken: p.paging.continuationToken ?? null,
            startToken: p.paging.startToken ?? null,
          });
        },
      ),
      propertyParams(300),
    );
  });

  it('the paging guess of a page whose paging fields come last is right; none when hasMoreData is null', () => {
    // Without the fields themselves the guess may come from an entry's text: fetch-pages.ts checks every
    // guess against the decoded page, so such a guess costs a request, never a page. With them last, the
    // guess is always made (a guesser that gives up on every page fails here), unless hasMoreData is
    // null: a guess needs a boolean.
    const withFields = page.filter(
      (p) => p.paging.hasMoreData !== undefined && p.paging.continuationToken !== undefined,
    );
    let guessed = 0;
    fc.assert(
      fc.property(withFields, (p) => {
        const text = pageText(
          p.logs,
          { ...p.paging, errorResponse: p.errorResponse },
          { ...p, logsFirst: true },
        );
        const guess = guessPaging(new TextEncoder().encode(text).buffer);
        const decoded = decodeShieldPage(text);
        if (decoded.hasMoreData === null) {
          expect(guess).toBeNull();
          return;
        }
        guessed++;
        expect(guess).toEqual({
          hasMoreData: decoded.hasMoreData,
          continuationToken: decoded.continuationToken,
        });
      }),
      {
        ...propertyParams(300),
        // Tried first whatever the number of runs: a page the guess must be made for.
        examples: [
          [
            {
              logs: [{ logId: 'a', timestamp: 1, extra: { hasMoreData: 'x' } }],
              paging: { hasMoreData: true, continuationToken: 'next "page"', startToken: undefined },
              errorResponse: undefined,
              logsFirst: true,
              indent: 0,
            },
          ],
        ],
      },
    );
    expect(guessed).toBeGreaterThan(0);
  });
});
