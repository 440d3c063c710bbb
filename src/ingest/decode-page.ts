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
import { splitLogs } from './logs-splitter.js';
import { parseOriginEntry, parseShieldEntry } from './parse-entries.js';
import {
  emptyOriginBatch,
  emptyShieldBatch,
  pushOrigin,
  pushShield,
  type OriginBatch,
  type ShieldBatch,
} from './row-batch.js';

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
  for (const entry of page.logs) pushShield(batch, parseShieldEntry(entry));
  return {
    hasMoreData: page.hasMoreData,
    continuationToken: page.continuationToken,
    startToken: page.startToken,
    errorResponse: page.errorResponse,
    batch,
  };
}

/**
 * An origin answer, `batchSize` rows at a time, parsed element by element (see logs-splitter.ts) so a
 * day of any size never has all its entries in memory as objects. Returns the paging fields at the end.
 */
export function* decodeOriginBody(text: string, batchSize: number): Generator<OriginBatch, PagingFields> {
  const split = splitLogs(text);
  if (!split) {
    // Not something the splitter understands: let JSON.parse say what is wrong, or decode it whole.
    const whole = shape(() => parseOriginErrorLogResponse(parseJson(text)));
    const batch = emptyOriginBatch();
    for (const entry of whole.logs) pushOrigin(batch, parseOriginEntry(entry));
    yield batch;
    return whole;
  }
  const envelope = shape(() => parseOriginErrorLogResponse(parseJson(split.rest)));
  let batch = emptyOriginBatch();
  for (let i = 0; i < split.elements.length; i++) {
    const [start, end] = split.elements[i]!;
    const entry = shape(() => checkEntry(parseJson(text.slice(start, end)), i));
    pushOrigin(batch, parseOriginEntry(entry));
    if (batch.logId.length === batchSize) {
      yield batch;
      batch = emptyOriginBatch();
    }
  }
  if (batch.logId.length > 0 || split.elements.length === 0) yield batch;
  return {
    hasMoreData: envelope.hasMoreData,
    continuationToken: envelope.continuationToken,
    startToken: envelope.startToken,
  };
}
