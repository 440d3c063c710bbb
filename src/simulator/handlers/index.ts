// Dispatch: the AccessKey check (API-NOTES: every /api and /origin request carries it; video takes
// none), then the operation's handler.
import { timingSafeEqual } from 'node:crypto';
import { problem, statusOnly, type Reply } from '../replies.js';
import type { Route } from '../routes.js';
import { apiGuardianMetrics } from './api-guardian.js';
import type { HandlerContext } from './context.js';
import { ddosEnums } from './ddos-enums.js';
import { edgeScript } from './edge-script.js';
import { originErrorLogs } from './origin-error-logs.js';
import { rateLimit } from './rate-limit.js';
import { shieldEventLogs } from './shield-event-logs.js';
import { videoPlayData } from './video-play-data.js';

export type { HandlerContext } from './context.js';

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The 401 of each operation, in the body shapes of API.md section 7. */
function unauthorized(route: Route, instance: string, echo: string | undefined): Reply {
  if (route.operation === 'shieldEventLogs') {
    return problem(401, 'a valid AccessKey header is required', instance, echo);
  }
  return statusOnly(401, echo);
}

export function answer(ctx: HandlerContext, route: Route, accessKey: string | string[] | undefined): Reply {
  if (route.operation !== 'videoPlayData' && !keyMatches(accessKey, ctx.opts.accessKey)) {
    return unauthorized(route, ctx.instance, ctx.echo);
  }
  switch (route.operation) {
    case 'videoPlayData':
      return videoPlayData(ctx, route.libraryId, route.videoId);
    case 'originErrorLogs':
      return originErrorLogs(ctx, route.zone, route.date);
    case 'edgeScript':
      return edgeScript(ctx, route.id);
    case 'apiGuardianMetrics':
      return apiGuardianMetrics(ctx, route.zone);
    case 'ddosEnums':
      return ddosEnums();
    case 'shieldEventLogs':
      return shieldEventLogs(ctx, route.zone, route.date, route.token);
    case 'rateLimit':
      return rateLimit(ctx, route.id);
  }
}
