// Pure: a page body (text) → its paging fields and its rows, in columns: all of ingestion's work that
// does not touch the database.
import {
  checkEntry,
  parseOriginErrorLogResponse,
  parseShieldEventLogPage,
  ShapeError,
  type InlineErrorObject,
  type PagingFields,
} from '../api/schemas/log-pages.js';
import { LogsSplitter, SplitError } from './logs-splitter.js';
import { appendOriginEntry, appendShieldEntry } from './parse-entries.js';
import { emptyOriginBatch, emptyShieldBatch, type OriginBatch, type ShieldBatch } from './row-batch.js';

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
    throw new DecodeError(
      'malformed-json',
      `body is not valid JSON (${text.length} characters; truncated?): ${(err as Error).message}`,
    );
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

export function decodeShieldPage(text: string): DecodedShieldPage {
  const page = shape(() => parseShieldEventLogPage(parseJson(text)));
  const batch = emptyShieldBatch();
  for (const entry of page.logs) appendShieldEntry(batch, entry);
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
 * of `batchSize` rows it completed; `end` returns the last (possibly empty) batch and the paging fields.
 * Entries are parsed one by one (see logs-splitter.ts), so a day of any size is never in memory whole.
 */
export class OriginBodyDecoder {
  private readonly splitter = new LogsSplitter();
  private batch = emptyOriginBatch();
  private index = 0;

  constructor(private readonly batchSize: number) {}

  push(text: string): OriginBatch[] {
    const full: OriginBatch[] = [];
    for (const element of split(() => this.splitter.push(text))) {
      const entry = shape(() => checkEntry(parseJson(element), this.index++));
      appendOriginEntry(this.batch, entry);
      if (this.batch.logId.length === this.batchSize) {
        full.push(this.batch);
        this.batch = emptyOriginBatch();
      }
    }
    return full;
  }

  end(): { batch: OriginBatch; paging: PagingFields } {
    const rest = split(() => this.splitter.end());
    const envelope = shape(() => parseOriginErrorLogResponse(parseJson(rest)));
    const { hasMoreData, continuationToken, startToken } = envelope;
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
