// fast-check generators for log entries whose values sit at every limit a store has: numbers beyond
// 2^53 and 2^63, fractional and negative ones, 1e21; text with U+0000 and lone surrogates, at and over
// the key and rollup-key limits; labels named like Object.prototype's members, labels nested deeper than
// MAX_NESTING; timestamps at both ends of the range. Each entry is written as JSON text, as an API would
// write it (a `__proto__` key included, which no object literal could carry).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { MAX_KEY_BYTES, MAX_NESTING, MAX_ROLLUP_KEY_BYTES } from '../../src/values/storable.js';

export const DAY = '2026-11-20';
export const DAY_START = Date.parse(`${DAY}T00:00:00Z`);

/** `bytes` bytes of ASCII that do not compress (PostgreSQL compresses wide index values that do). */
function incompressible(bytes: number, salt: number): string {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += createHash('sha256').update(`${salt}:${i}`).digest('hex');
  return text.slice(0, bytes);
}

/** Text at the edges: plain, U+0000, lone surrogates, pairs, and lengths at and over the limits. */
export const edgeText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'BLOCKED', 'rule-1', 'DE', 'AS1234', 'http_timeout', '') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('nul\u0000', '\u0000', 'id-\ud800', 'id-\udc00', 'pair-😀', '\udfff', 'é'),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          MAX_ROLLUP_KEY_BYTES,
          MAX_ROLLUP_KEY_BYTES + 1,
          MAX_KEY_BYTES,
          MAX_KEY_BYTES + 1,
          3_200,
        ),
        fc.nat(5),
      )
      .map(([n, salt]) => incompressible(n, salt)),
  },
);

/** A logId: mostly plain and distinct enough to collide sometimes; text at the edges; a key at its limit. */
const logId = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 30 }).map((n) => `id-${n}`) },
  { weight: 3, arbitrary: edgeText },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(MAX_KEY_BYTES, MAX_KEY_BYTES + 1, 3_200), fc.nat(3))
      .map(([n, salt]) => incompressible(n, salt)),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 7) },
);

const timestamp = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 86_399_999 }).map((ms) => DAY_START + ms) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(0, Date.UTC(9999, 11, 31, 23, 59, 59, 999), 8.64e15, DAY_START - 1),
  },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 8.64e15 + 1, '1700000000000', null) },
);

/** Numbers a status code or a counter may be sent as. */
export const edgeNumber = fc.constantFrom(
  0,
  502,
  9999,
  10_000,
  -1,
  502.5,
  1e21,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  2 ** 63,
  '502',
  '99999',
  null,
);

/** JSON nested `levels` deep: `[[…[]…]]`. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** JSON text of an object from pairs, keys as given (`__proto__` too). */
function objectText(pairs: ReadonlyArray<readonly [string, string]>): string {
  return `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

const valueText = fc.oneof(
  { weight: 5, arbitrary: edgeText.map((t) => JSON.stringify(t)) },
  { weight: 2, arbitrary: edgeNumber.map((n) => JSON.stringify(n)) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":1}', '[1,"x"]', 'true', nested(MAX_NESTING + 1)) },
);

const LABEL_KEYS = [
  'asn',
  'country',
  'ruleId',
  'severity',
  'status',
  'method',
  'serverZone',
  'ServerZone',
  'ErrorCode',
  'StatusCode',
  '__proto__',
  'constructor',
  'toString',
  'extra',
] as const;

const labels = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .uniqueArray(fc.tuple(fc.constantFrom(...LABEL_KEYS), valueText), {
        maxLength: 6,
        selector: (p) => p[0],
      })
      .map(objectText),
  },
  { weight: 1, arbitrary: fc.constantFrom('null', '"flat"', '[1,2]', nested(MAX_NESTING + 2)) },
);

/** The embedded log: a JSON object's text with fields at the edges, text that is not JSON, or not a string. */
const log = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          StatusCode: edgeNumber,
          ErrorCode: edgeText,
          RequestUrl: edgeText,
          Url: edgeText,
          RemoteIp: edgeText,
          Message: edgeText,
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(JSON.stringify(o))),
  },
  { weight: 1, arbitrary: edgeText.map((t) => JSON.stringify(t)) },
  { weight: 1, arbitrary: fc.constantFrom('null', '{"a":[1]}', nested(MAX_NESTING + 1)) },
);

/** One entry's JSON text. */
export const edgeEntry = fc
  .record(
    {
      logId: logId.map((v) => JSON.stringify(v)),
      timestamp: timestamp.map((v) => JSON.stringify(v)),
      log,
      labels,
    },
    { requiredKeys: ['logId', 'timestamp'] },
  )
  .map((e) => objectText(Object.entries(e).filter((p): p is [string, string] => p[1] !== undefined)));

/** A day's pages: each a list of entries; some entries repeat one before them (a page or pages back). */
export const edgePages = fc
  .array(
    fc.array(fc.oneof({ weight: 5, arbitrary: edgeEntry }, { weight: 1, arbitrary: fc.nat() }), {
      maxLength: 8,
    }),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((pages) => {
    // A number stands for "the same entry as one sent before" (on this page or an earlier one).
    const sent: string[] = [];
    return pages.map((page) =>
      page.flatMap((e) => {
        if (typeof e === 'string') {
          sent.push(e);
          return [e];
        }
        return sent.length === 0 ? [] : [sent[e % sent.length]!];
      }),
    );
  });

/** An API Guardian answer's data: each counter a number at the edges, or missing. */
export const edgeCounters = fc
  .record(
    {
      totalBlockedRequests: edgeNumber,
      totalLoggedRequests: edgeNumber,
      totalRateLimited: edgeNumber,
      totalRequestsInspected: edgeNumber,
      totalFailedRequestValidation: edgeNumber,
      totalFailedAuthenticationEnforcement: edgeNumber,
    },
    { requiredKeys: [] },
  )
  .map((data) => Object.fromEntries(Object.entries(data).filter(([, v]) => typeof v !== 'string')));
