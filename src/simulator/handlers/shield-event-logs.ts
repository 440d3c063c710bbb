// 4.6 Shield event logs: one page per request, continuation tokens in the path, a retention window of
// today and `shieldWindowDays` days before it (older dates answer 401 with an errorKey, API-NOTES).
// With dotTokens, pages 1 and 2 hand out the tokens `.` and `..`, which name pages 2 and 3 of the day.
import { addDays, dayOf, type Day } from '../../time/utc-day.js';
import type { Position } from '../data.js';
import { q } from '../json-text.js';
import {
  inlineFailure,
  INLINE_OK,
  json,
  problem,
  UNKNOWN_SHIELD_ZONE,
  WINDOW_EXPIRED,
  type Reply,
} from '../replies.js';
import { decodeToken, encodeToken } from '../tokens.js';
import { BAD_DATE, pathDay, type HandlerContext } from './context.js';

const NO_PAGE = '"logs":null,"hasMoreData":false,"continuationToken":null,"startToken":null';

/** dotTokens: the token page N returns, and the page each dot token asks for. */
const DOT_TOKEN_OF_PAGE: ReadonlyMap<number, string> = new Map([
  [1, '.'],
  [2, '..'],
]);
const PAGE_OF_DOT_TOKEN: ReadonlyMap<string, number> = new Map([
  ['.', 2],
  ['..', 3],
]);

/** Where the asked page starts and its number, or undefined for a token not valid for the zone-day. */
function resume(
  ctx: HandlerContext,
  zone: number,
  day: Day,
  token: string,
): { from: Position | undefined; page: number } | undefined {
  if (token === '') return { from: undefined, page: 1 };
  const dotted = ctx.opts.dotTokens ? PAGE_OF_DOT_TOKEN.get(token) : undefined;
  if (dotted !== undefined) {
    // Stateless: recount the pages before it from the start of the day.
    return { from: ctx.data.pageStart(zone, day, ctx.now, ctx.opts.pageSize, dotted), page: dotted };
  }
  const from = decodeToken(token);
  if (!from || from.zone !== zone || from.day !== day) return undefined;
  return { from, page: from.page };
}

export function shieldEventLogs(ctx: HandlerContext, zone: number, date: string, token: string): Reply {
  const day = pathDay(date);
  if (!day) return problem(400, BAD_DATE, ctx.instance, ctx.echo);
  if (!ctx.data.knows('shield', zone)) {
    const message = `Shield zone ${zone} was not found or you do not have access to it`;
    return json(202, `{${NO_PAGE},"errorResponse":${inlineFailure(UNKNOWN_SHIELD_ZONE, message, ctx.echo)}}`);
  }
  const oldest = addDays(dayOf(ctx.now), -ctx.opts.shieldWindowDays);
  if (day < oldest) {
    const message = `Event logs are available from ${oldest} on; ${day} is outside the window`;
    return json(401, `{${NO_PAGE},"errorResponse":${inlineFailure(WINDOW_EXPIRED, message, ctx.echo)}}`);
  }
  const at = resume(ctx, zone, day, token);
  if (!at) {
    const detail = 'the continuation token is not valid for this zone and date';
    return problem(400, detail, ctx.instance, ctx.echo);
  }
  const { from, page } = at;
  const slice = ctx.data.page(zone, day, from, ctx.now, ctx.opts.pageSize);
  let logs = slice.json;
  let entries = slice.count;
  let hasMoreData = slice.next !== undefined;
  let next = slice.next
    ? ((ctx.opts.dotTokens ? DOT_TOKEN_OF_PAGE.get(page) : undefined) ??
      encodeToken({ zone, day, ...slice.next, page: page + 1 }))
    : null;
  let startToken: string | null = encodeToken({ zone, day, ...slice.start, page });
  let errorResponse = INLINE_OK;
  for (const fault of ctx.paging) {
    if (fault.kind === 'empty-more' && page === (fault.afterPage ?? 1)) {
      // Nothing on this page, yet more to come: the next token resumes where this page started.
      logs = '';
      entries = 0;
      hasMoreData = true;
      next = encodeToken({ zone, day, ...slice.start, page: page + 1 });
      ctx.countFault('empty-more');
    } else if (fault.kind === 'loop' && page >= (fault.afterPage ?? 2)) {
      hasMoreData = true;
      next = token;
      ctx.countFault('loop');
    } else if (fault.kind === 'null-fields') {
      startToken = null;
      errorResponse = 'null';
      ctx.countFault('null-fields');
    }
  }
  return json(
    200,
    `{"logs":[${logs}],"hasMoreData":${hasMoreData},"continuationToken":${next === null ? 'null' : q(next)},` +
      `"startToken":${startToken === null ? 'null' : q(startToken)},"errorResponse":${errorResponse}}`,
    entries,
  );
}
