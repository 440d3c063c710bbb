// Fuzzing the page decoders with mutated pages (characters replaced, inserted, deleted, the body cut
// short): they either decode, or throw DecodeError, the typed error the HTTP layer retries or names;
// nothing else escapes. A page that still decodes keeps every element that is well formed in it, and a
// text that is still a page as the API documents it (about one in nine) must decode: refusing is not a
// way to pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeShieldPage, DecodeError, OriginBodyDecoder } from '../../src/ingest/decode-page.js';
import { guessPaging } from '../../src/ingest/peek-paging.js';
import type { OriginBatch } from '../../src/store/rows.js';
import { entries, errorResponse, pageText, paging } from './arbitraries.js';
import { expectSorted } from './judge.js';
import { propertyParams } from './runs.js';

type Mutation =
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'cut'; at: number };

/** Characters that matter to a JSON scanner, and a few that do not. */
const noise = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    ' ',
    'n',
    'u',
    'l',
    '0',
    '-',
    'e',
    '\u0000',
    '\ud800',
    '\u2028',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: noise }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: noise }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

function mutate(text: string, mutations: Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = m.at % (out.length + 1);
    if (m.kind === 'replace') out = out.slice(0, at) + m.text + out.slice(at + m.text.length);
    else if (m.kind === 'insert') out = out.slice(0, at) + m.text + out.slice(at);
    else if (m.kind === 'delete') out = out.slice(0, at) + out.slice(at + m.length);
    else out = out.slice(0, at);
  }
  return out;
}

const mutatedPage = fc
  .record({
    logs: entries,
    paging,
    errorResponse,
    logsFirst: fc.boolean(),
    indent: fc.constantFrom(0, 2),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
    cuts: fc.array(fc.nat(), { maxLength: 5 }),
  })
  .map((p) => ({
    ...p,
    text: mutate(pageText(p.logs, { ...p.paging, errorResponse: p.errorResponse }, p), p.mutations),
  }));

type MutatedPage = typeof mutatedPage extends fc.Arbitrary<infer T> ? T : never;

/**
 * Pages left as the API sent them, tried first (fast-check's `examples`, which count among the runs):
 * however few the runs, the properties see a documented page, which must decode.
 */
const UNMUTATED: Array<[MutatedPage]> = (
  [
    {
      logs: [{ logId: 'a', timestamp: 1, log: '{"k":1}' }, { logId: '', timestamp: 2 }, 7],
      paging: { hasMoreData: true, continuationToken: 't/2?', startToken: null },
      errorResponse: null,
      logsFirst: true,
      indent: 2,
    },
    {
      logs: [],
      paging: { hasMoreData: false, continuationToken: undefined, startToken: undefined },
      errorResponse: undefined,
      logsFirst: false,
      indent: 0,
    },
  ] satisfies Array<Omit<MutatedPage, 'mutations' | 'cuts' | 'text'>>
).map((p) => [
  {
    ...p,
    mutations: [],
    cuts: [5],
    text: pageText(p.logs, { ...p.paging, errorResponse: p.errorResponse }, p),
  },
]);

/** Runs `decode`; a DecodeError counts as a clean refusal, anything else thrown fails the property. */
function decodesOrRefuses<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (err) {
    if (err instanceof DecodeError) return undefined;
    throw new Error(`the decoder threw ${(err as Error)?.name}: ${(err as Error)?.message}`, { cause: err });
  }
}

/**
 * Whether a text is a page as the API documents it, judged independently of the decoders: a JSON
 * object whose `logs` is an array or null or missing, `hasMoreData` a boolean, the tokens strings (each
 * may also be null or missing), and, on a Shield page, `errorResponse` an object. Its elements may be
 * anything: an unkeyable one is quarantined, not a reason to refuse the page.
 */
function documentedPage(text: string, source: 'shield' | 'origin'): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(value)) return false;
  const absent = (v: unknown) => v === undefined || v === null;
  const { logs, hasMoreData, continuationToken, startToken, errorResponse } = value;
  return (
    (absent(logs) || Array.isArray(logs)) &&
    (absent(hasMoreData) || typeof hasMoreData === 'boolean') &&
    [continuationToken, startToken].every((t) => absent(t) || typeof t === 'string') &&
    (source === 'origin' || absent(errorResponse) || isObject(errorResponse))
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The documented pages among a property's inputs: each must decode, and some must have been tried, so
 * that a decoder refusing every input cannot pass by the refusal branch alone.
 */
class Tally {
  private documented = 0;

  see(documented: boolean, decoded: boolean): void {
    if (!documented) return;
    this.documented++;
    expect(decoded, 'a page as the API documents it must decode').toBe(true);
  }

  expectExercised(): void {
    expect(this.documented).toBeGreaterThan(0);
  }
}

/** The elements of a text that is JSON with a `logs` array (none for a null or missing one). */
function elementsOf(text: string): unknown[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const logs = (value as { logs?: unknown }).logs;
  if (logs === undefined || logs === null) return []; // no entries: the API's null or missing `logs`
  return Array.isArray(logs) ? logs : undefined;
}

describe('page decoders on mutated pages (fuzz)', () => {
  it('a Shield page decodes or is refused with DecodeError, and keeps every well-formed entry', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(mutatedPage, ({ text }) => {
        const decoded = decodesOrRefuses(() => decodeShieldPage(text));
        tally.see(documentedPage(text, 'shield'), decoded !== undefined);
        if (!decoded) return;
        const logs = elementsOf(text);
        expect(logs).toBeDefined(); // it decoded: it was JSON with a logs array (or none)
        expectSorted(decoded.batch, logs!);
      }),
      { ...propertyParams(2_000), examples: UNMUTATED },
    );
    tally.expectExercised();
  });

  it('an origin answer, split anywhere, decodes or is refused with DecodeError, and keeps every well-formed entry', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(mutatedPage, ({ text, cuts }) => {
        const decoded = decodesOrRefuses(() => {
          const decoder = new OriginBodyDecoder(3);
          const batches: OriginBatch[] = [];
          let from = 0;
          for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
            batches.push(...decoder.push(text.slice(from, cut)));
            from = cut;
          }
          batches.push(...decoder.push(text.slice(from)), decoder.end().batch);
          return batches;
        });
        tally.see(documentedPage(text, 'origin'), decoded !== undefined);
        if (!decoded) return;
        const logs = elementsOf(text);
        // The splitter reads entries as they stream: a body that is not one JSON document may still have
        // yielded elements before its end was refused; one that decoded whole must be JSON.
        expect(logs).toBeDefined();
        const joined = {
          logId: decoded.flatMap((b) => b.logId),
          timestamp: decoded.flatMap((b) => b.timestamp),
          log: decoded.flatMap((b) => b.log),
          rejected: decoded.flatMap((b) => b.rejected),
        };
        expectSorted(joined, logs!);
      }),
      { ...propertyParams(2_000), examples: UNMUTATED },
    );
    tally.expectExercised();
  });

  it('the paging guess never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(mutatedPage, ({ text }) => {
        const guess = guessPaging(new TextEncoder().encode(text).buffer);
        if (guess !== null) {
          expect(typeof guess.hasMoreData).toBe('boolean');
          expect(guess.continuationToken === null || typeof guess.continuationToken === 'string').toBe(true);
        }
      }),
      propertyParams(2_000),
    );
  });
});
