// 4.6 Shield event logs: one page per request, continuation tokens in the path, a retention window of
// today and `shieldWindowDays` days before it (older dates answer 401 with an errorKey, API-NOTES).
import { addDays, dayOf } from '../../time/utc-day.js';
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

export function shieldEventLogs(ctx: HandlerContext, zone: number, date: string, token: string): Reply {
  const day = pathDay(date);
  if (!day) return problem(400, BAD_DATE, ctx.instance);
  if (!ctx.data.knows('shield', zone)) {
    const message = `Shield zone ${zone} was not found or you do not have access to it`;
    return json(202, `{${NO_PAGE},"errorResponse":${inlineFailure(UNKNOWN_SHIELD_ZONE, message)}}`);
  }
  const oldest = addDays(dayOf(ctx.now), -ctx.opts.shieldWindowDays);
  if (day < oldest) {
    const message = `Event logs are available from ${oldest} on; ${day} is outside the window`;
    return json(401, `{${NO_PAGE},"errorResponse":${inlineFailure(WINDOW_EXPIRED, message)}}`);
  }
  const from = token === '' ? undefined : decodeToken(token);
  if (token !== '' && (!from || from.zone !== zone || from.day !== day)) {
    return problem(400, 'the continuation token is not valid for this zone and date', ctx.instance);
  }
  const page = from?.page ?? 1;
  const slice = ctx.data.page(zone, day, from, ctx.now, ctx.opts.pageSize);
  let logs = slice.json;
  let entries = slice.count;
  let hasMoreData = slice.next !== undefined;
  let next = slice.next ? encodeToken({ zone, day, ...slice.next, page: page + 1 }) : null;
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
    }
  }
  const startToken = encodeToken({ zone, day, ...slice.start, page });
  return json(
    200,
    `{"logs":[${logs}],"hasMoreData":${hasMoreData},"continuationToken":${next === null ? 'null' : q(next)},` +
      `"startToken":${q(startToken)},"errorResponse":${INLINE_OK}}`,
    entries,
  );
}
