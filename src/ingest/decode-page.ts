// Pure: a page body (text) → its paging fields and its rows, in columns: all of ingestion's work that
// does not touch the database. Entries that cannot be keyed, or whose row no store can hold
// (store/storable.ts), go to the batch's `rejected` list at their place in the page.
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
import { jsonText } from '../store/json-text.js';
import { storableMessage } from '../store/storable.js';
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
 * An origin answer decoded as it arrives: `push` takes the next piece of text and returns the batches
 * of `batchSize` entries it completed; `end` returns the last (possibly empty) batch and the paging
 * fields. Entries are parsed one by one (see logs-splitter.ts), so a day of any size is never in memory
 * whole. A rejected entry keeps its text exactly as received.
 */
export class OriginBodyDecoder {
  private readonly splitter = new LogsSplitter();
  private batch = emptyOriginBatch();
  private size = 0;
  private index = 0;

  constructor(private readonly batchSize: number) {}

  push(text: string): OriginBatch[] {
    const full: OriginBatch[] = [];
    for (const element of split(() => this.splitter.push(text))) {
      take(this.batch, parseJson(element), this.index++, appendOriginEntry, () => element);
      if (++this.size === this.batchSize) {
        full.push(this.batch);
        this.batch = emptyOriginBatch();
        this.size = 0;
      }
    }
    return full;
  }

  end(): { batch: OriginBatch; paging: PagingFields } {
    const rest = split(() => this.splitter.end());
    const { hasMoreData, continuationToken, startToken } = shape(() => originEnvelope(parseJson(rest)));
    return { batch: this.batch, paging: { hasMoreData, continuationToken, startToken } };
  }
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
