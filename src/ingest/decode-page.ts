// Pure: a page body (text) → its paging fields and its rows, in columns: all of ingestion's work that
// does not touch the database. Entries that cannot be keyed, or whose row no store can hold
// (values/storable.ts), go to the batch's `rejected` list at their place in the page.
import {
  keyedEntry,
  originEnvelope,
  ShapeError,
  shieldPageEnvelope,
  type InlineErrorObject,
  type PagingFields,
  type RawLogEntry,
} from '../api/schemas/log-pages.js';
import { printable } from '../api/describe-body.js';
import { LogsSplitter, SplitError } from './logs-splitter.js';
import { appendOriginEntry, appendShieldEntry } from './parse-entries.js';
import { jsonText } from '../values/json-text.js';
import { storableMessage } from '../values/storable.js';
import { emptyOriginBatch, emptyShieldBatch, type OriginBatch, type ShieldBatch } from '../store/rows.js';

/** Why a body could not be decoded: not JSON (perhaps truncated: worth a retry), or not the documented shape. */
export class DecodeError extends Error {
  override name = 'DecodeError';
  constructor(
    readonly kind: 'malformed-json' | 'invalid-shape',
    message: string,
  ) {
    super(message);
  }
}

export interface DecodedShieldPage extends PagingFields {
  errorResponse: InlineErrorObject | null;
  batch: ShieldBatch;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // What the body was is told by the HTTP layer, which has its bytes and headers (http.ts).
    throw new DecodeError('malformed-json', printable((err as Error).message));
  }
}

function shape<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ShapeError) throw new DecodeError('invalid-shape', `response field ${err.message}`);
    throw err;
  }
}

/**
 * Appends one entry to `batch`, or to its rejected list (at `position`, its place in the page) when it
 * has no usable key or its row cannot be stored.
 */
function take<B extends OriginBatch | ShieldBatch>(
  batch: B,
  entry: unknown,
  position: number,
  append: (b: B, e: RawLogEntry) => string | null,
  raw: () => string,
): void {
  const keyed = keyedEntry(entry);
  const reason = typeof keyed === 'string' ? keyed : append(batch, keyed);
  // A reason may quote the entry: written storable, the same on both stores.
  if (reason !== null) batch.rejected.push({ position, raw: raw(), reason: storableMessage(reason) });
}

export function decodeShieldPage(text: string): DecodedShieldPage {
  const page = shape(() => shieldPageEnvelope(parseJson(text)));
  const batch = emptyShieldBatch();
  const { logs } = page;
  for (let i = 0; i < logs.length; i++) {
    const entry = logs[i];
    take(batch, entry, i, appendShieldEntry, () => jsonText(entry));
  }
  return {
    hasMoreData: page.hasMoreData,
    continuationToken: page.continuationToken,
    startToken: page.startToken,
    errorResponse: page.errorResponse,
    batch,
  };
}

/**
 * A body decoded as it arrives (see logs-splitter.ts): `push` takes the next piece of text and returns
 * the batches of `batchSize` entries it completed; `end` the last (possibly empty) batch and the rest of
 * the answer, parsed (its envelope, not yet checked). Entries are parsed one by one, so a body of any
 * size is never in memory decoded whole. Positions count across the body. Without `append`, entries
 * are parsed (checked to be JSON) and counted, and no rows are made.
 */
class BodyDecoder<B extends OriginBatch | ShieldBatch> {
  private readonly splitter = new LogsSplitter();
  private batch: B;
  private size = 0;
  /** Elements read so far. */
  index = 0;

  constructor(
    private readonly batchSize: number,
    private readonly empty: () => B,
    private readonly append: ((b: B, e: RawLogEntry) => string | null) | null,
    private readonly raw: (element: string, entry: unknown) => string,
  ) {
    this.batch = empty();
  }

  push(text: string): B[] {
    const full: B[] = [];
    for (const element of split(() => this.splitter.push(text))) {
      const entry = parseJson(element);
      const position = this.index++;
      if (!this.append) continue;
      take(this.batch, entry, position, this.append, () => this.raw(element, entry));
      if (++this.size === this.batchSize) {
        full.push(this.batch);
        this.batch = this.empty();
        this.size = 0;
      }
    }
    return full;
  }

  end(): { batch: B; rest: unknown } {
    return { batch: this.batch, rest: parseJson(split(() => this.splitter.end())) };
  }
}

/**
 * An origin answer decoded as it arrives, in batches of `batchSize` entries (BodyDecoder), then its
 * paging fields. A rejected entry keeps its text exactly as received.
 */
export class OriginBodyDecoder {
  private readonly body: BodyDecoder<OriginBatch>;

  constructor(batchSize: number) {
    this.body = new BodyDecoder(batchSize, emptyOriginBatch, appendOriginEntry, (element) => element);
  }

  push(text: string): OriginBatch[] {
    return this.body.push(text);
  }

  end(): { batch: OriginBatch; paging: PagingFields } {
    const { batch, rest } = this.body.end();
    const { hasMoreData, continuationToken, startToken } = shape(() => originEnvelope(rest));
    return { batch, paging: { hasMoreData, continuationToken, startToken } };
  }
}

/**
 * Bytes from which a Shield page is decoded in parts, never whole: decoded whole, a page of small entries
 * takes over ten times its bytes of heap (a page of 70-byte entries: 500 bytes each), which a page
 * within api.maxResponseBytes must not run out of.
 */
export const WHOLE_PAGE_BYTES = 16 * 2 ** 20;

/** A Shield page too large to decode whole: its envelope and entry count, checked; its rows still to come. */
export interface LargeShieldPage extends PagingFields {
  errorResponse: InlineErrorObject | null;
  /** Elements of its `logs`. */
  entries: number;
  /** The body, as received (read again by shieldPageParts). */
  body: Uint8Array;
}

/** The text of `body`, a megabyte at a time (bad UTF-8 as U+FFFD, as a whole page's decoding has it). */
function* textOf(body: Uint8Array): Generator<string> {
  const utf8 = new TextDecoder();
  for (let at = 0; at < body.length; at += 2 ** 20) {
    yield utf8.decode(body.subarray(at, at + 2 ** 20), { stream: true });
  }
  yield utf8.decode();
}

const shieldRaw = (_element: string, entry: unknown) => jsonText(entry);

/**
 * Checks a large Shield page whole — every element parsed as JSON, then dropped — and returns its
 * envelope and how many entries it holds: a body that is not what it should be fails here, before any
 * part of it is stored (DecodeError, as decodeShieldPage).
 */
export function scanShieldPage(body: Uint8Array): LargeShieldPage {
  const decoder = new BodyDecoder(Infinity, emptyShieldBatch, null, shieldRaw);
  for (const text of textOf(body)) decoder.push(text);
  const page = shape(() => shieldPageEnvelope(decoder.end().rest));
  return {
    hasMoreData: page.hasMoreData,
    continuationToken: page.continuationToken,
    startToken: page.startToken,
    errorResponse: page.errorResponse,
    entries: decoder.index,
    body,
  };
}

/** The rows of a page scanShieldPage checked, in batches of `batchSize` (positions count across the page). */
export function* shieldPageParts(page: LargeShieldPage, batchSize: number): Generator<ShieldBatch> {
  const decoder = new BodyDecoder(batchSize, emptyShieldBatch, appendShieldEntry, shieldRaw);
  let parts = 0;
  for (const text of textOf(page.body)) {
    for (const batch of decoder.push(text)) {
      parts++;
      yield batch;
    }
  }
  // The last, short batch; an empty one only for a page without entries (a page is at least one part).
  const last = decoder.end().batch;
  if (parts === 0 || batchEntries(last) > 0) yield last;
}

function split<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SplitError)
      throw new DecodeError('malformed-json', `body is not valid JSON: ${err.message}`);
    throw err;
  }
}

/** Entries a batch came with: its rows and its rejected entries. */
export function batchEntries(batch: OriginBatch | ShieldBatch): number {
  return batch.logId.length + batch.rejected.length;
}
