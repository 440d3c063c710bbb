// Pure: the explorer's query string (`/api/v1/logs?source=shield&zone=201&last=24h&rule=942100&q=admin`)
// as a checked LogFilter, page cursor and limit. Every value is validated here; the statement builder
// (history/console-statements.ts) checks again and quotes. Unknown parameters are refused, so a typo
// does not silently widen the filter.
import { FILTER_FIELDS, type LogFilter, type PageCursor } from '../history/console-statements.js';
import { badRequest } from './request-error.js';

export interface LogsRequest {
  filter: LogFilter;
  /** The page after this line (older lines). */
  cursor: PageCursor | null;
  /** Live tail: the lines newer than this one, oldest first. Never with `cursor`. */
  after: PageCursor | null;
  limit: number;
}

/** Lines per page unless `limit` says otherwise, and the most it may say. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;
/** The longest filter value taken (a URL fragment, a message word). */
const MAX_TEXT = 500;

/** The presets of `last`: the range ending now. */
const LAST: Readonly<Record<string, number>> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

const COMMON = new Set(['source', 'zone', 'from', 'to', 'last', 'q', 'cursor', 'after', 'limit']);

/** An instant: milliseconds since the epoch, or ISO-8601 with a zone (`2026-11-22T10:00:00Z`). */
export function parseInstant(text: string, name: string): number {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(text))
    throw badRequest(`${name}: expected milliseconds or ISO-8601 UTC (2026-11-22T10:00:00Z), not ${text}`);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw badRequest(`${name}: not a date: ${text}`);
  return ms;
}

const textValue = (value: string, name: string): string => {
  if (value.length > MAX_TEXT) throw badRequest(`${name}: at most ${MAX_TEXT} characters`);
  if (value.includes('\0')) throw badRequest(`${name}: NUL is not allowed`);
  return value;
};

/** The cursor the previous page handed out: `<timestamp>.<log id, base64url>`. */
export function encodeCursor(c: PageCursor): string {
  return `${c.timestamp}.${Buffer.from(c.logId, 'utf8').toString('base64url')}`;
}

export function decodeCursor(text: string): PageCursor {
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]*)$/.exec(text);
  if (!m) throw badRequest('cursor: not a cursor this console gave');
  return { timestamp: Number(m[1]), logId: Buffer.from(m[2]!, 'base64url').toString('utf8') };
}

export function parseLogsRequest(params: URLSearchParams, now: number): LogsRequest {
  const source = params.get('source') ?? 'origin';
  if (source !== 'origin' && source !== 'shield') throw badRequest('source: origin or shield');
  const fields = FILTER_FIELDS[source];
  for (const name of params.keys())
    if (!COMMON.has(name) && fields[name] === undefined)
      throw badRequest(
        `unknown parameter ${name.slice(0, 40)}: ${source} logs filter on ${Object.keys(fields).join(', ')}`,
      );

  const zones = params
    .getAll('zone')
    .flatMap((z) => z.split(','))
    .filter((z) => z !== '')
    .map((z) => {
      if (!/^\d{1,16}$/.test(z) || !Number.isSafeInteger(Number(z)))
        throw badRequest(`zone: not a zone id: ${z}`);
      return Number(z);
    });

  const last = params.get('last');
  let from: number;
  let to: number;
  if (last !== null) {
    const span = LAST[last];
    if (span === undefined) throw badRequest(`last: one of ${Object.keys(LAST).join(', ')}`);
    if (params.has('from') || params.has('to')) throw badRequest('last: not with from or to');
    to = now;
    from = now - span;
  } else {
    to = params.has('to') ? parseInstant(params.get('to')!, 'to') : now;
    from = params.has('from') ? parseInstant(params.get('from')!, 'from') : to - LAST['24h']!;
  }
  if (from >= to) throw badRequest('from: must be before to');

  const filters: Record<string, string | number> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = params.get(name);
    if (value === null || value === '') continue;
    if (field.kind === 'int' && !/^-?\d{1,9}$/.test(value)) throw badRequest(`${name}: expected a number`);
    filters[name] = field.kind === 'int' ? Number(value) : textValue(value, name);
  }

  const q = params.get('q');
  const limitText = params.get('limit');
  const limit = limitText === null ? DEFAULT_PAGE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw badRequest(`limit: a whole number from 1 to ${MAX_PAGE}`);
  const cursor = params.get('cursor');
  const after = params.get('after');
  const given = (text: string | null) => text !== null && text !== '';
  if (given(cursor) && given(after)) throw badRequest('cursor: not with after');
  return {
    filter: {
      source: source,
      zones,
      from,
      to,
      fields: filters,
      text: q === null || q === '' ? null : textValue(q, 'q'),
    },
    cursor: given(cursor) ? decodeCursor(cursor!) : null,
    after: given(after) ? decodeCursor(after!) : null,
    limit,
  };
}
