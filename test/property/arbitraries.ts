// fast-check generators for log pages as the API may send them: entries well formed, odd (null or odd
// fields, with a usable key) and unkeyable, inside Shield pages and origin answers with paging fields of
// every allowed type; and an independent judge of which entries are keyable.
import fc from 'fast-check';

const MAX_TIMESTAMP_MS = 8.64e15;

/** Keyable by the API's documentation: a non-empty string logId and an integer millisecond timestamp. */
export function keyable(entry: unknown): entry is { logId: string; timestamp: number } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const { logId, timestamp } = entry as Record<string, unknown>;
  return (
    typeof logId === 'string' &&
    logId.length > 0 &&
    typeof timestamp === 'number' &&
    Number.isInteger(timestamp) &&
    timestamp >= 0 &&
    timestamp <= MAX_TIMESTAMP_MS
  );
}

/** Any text, including quotes, backslashes, control characters, non-ASCII and lone surrogates. */
export const anyText = fc.string({ unit: 'binary', maxLength: 40 });

const labelValue = fc.oneof(
  anyText,
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** An entry with a usable key; its other fields as documented, odd, null or missing. */
export const keyableEntry = fc.record(
  {
    logId: anyText.filter((s) => s.length > 0),
    timestamp: fc.integer({ min: 0, max: MAX_TIMESTAMP_MS }),
    log: fc.oneof(
      fc.json({ maxDepth: 2 }), // the documented case: a JSON object's text (or any JSON)
      anyText, // cut short, or not JSON at all
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }), // not a string
    ),
    labels: fc.oneof(
      fc.dictionary(anyText, labelValue, { maxKeys: 4 }),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['logId', 'timestamp'] },
);

/** An element without a usable key: no or empty logId, an odd timestamp, or not an object at all. */
export const unkeyableEntry = fc.oneof(
  fc.record({
    logId: fc.oneof(fc.constant(''), fc.constant(null), fc.integer()),
    timestamp: fc.integer({ min: 0 }),
  }),
  fc.record({ timestamp: fc.integer({ min: 0 }), log: anyText }),
  fc.record({
    logId: anyText.filter((s) => s.length > 0),
    timestamp: fc.oneof(
      fc.double({ noInteger: true }),
      fc.integer({ max: -1 }),
      fc.constant(MAX_TIMESTAMP_MS + 1),
      anyText,
      fc.constant(null),
    ),
  }),
  fc.constant(null),
  anyText,
  fc.integer(),
  fc.array(fc.integer(), { maxLength: 2 }),
);

/** A page's elements, keyable and not, mixed. */
export const entries = fc.array(
  fc.oneof({ weight: 4, arbitrary: keyableEntry }, { weight: 1, arbitrary: unkeyableEntry }),
  {
    maxLength: 12,
  },
);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

export const paging = fc.record({
  hasMoreData: optional(fc.oneof(fc.boolean(), fc.constant(null))),
  continuationToken: optional(fc.oneof(anyText, fc.constant(null))),
  startToken: optional(fc.oneof(anyText, fc.constant(null))),
});

export const errorResponse = optional(
  fc.oneof(
    fc.constant(null),
    fc.record({
      success: fc.boolean(),
      message: fc.oneof(anyText, fc.constant(null)),
      errorKey: fc.oneof(anyText, fc.constant(null)),
    }),
  ),
);

/** JSON text of a page: `logs` (an array, null or missing) first or last, with any indentation. */
export function pageText(
  logs: unknown[] | null | undefined,
  fields: Record<string, unknown>,
  opts: { logsFirst: boolean; indent: number },
): string {
  const body: Record<string, unknown> = {};
  if (opts.logsFirst && logs !== undefined) body.logs = logs;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  if (!opts.logsFirst && logs !== undefined) body.logs = logs;
  return JSON.stringify(body, null, opts.indent);
}
