// 4.2 Origin error logs: one answer holds the whole (logged so far) day, streamed in chunks so a large
// day never sits in memory. Odd zone ids also carry the undocumented paging fields (API-NOTES). The
// `more` and `null-fields` faults rewrite those fields (adding them on even zones).
import type { Day } from '../../time/utc-day.js';
import { q } from '../json-text.js';
import { json, problem, statusOnly, type Reply } from '../replies.js';
import { encodeToken } from '../tokens.js';
import { BAD_DATE, pathDay, type HandlerContext } from './context.js';

const CHUNK_ENTRIES = 500;

/** What follows the last entry: `]}` or the paging fields, as the zone and the faults want them. */
function tail(ctx: HandlerContext, zone: number, day: Day, count: number): string {
  const start = q(encodeToken({ zone, day, segment: 0, index: 0, page: 1 }));
  let fields = zone % 2 === 1 ? ['false', 'null', start] : undefined;
  for (const fault of ctx.paging) {
    if (fault.kind === 'more') {
      // Says the answer is incomplete although it holds the whole day.
      fields = ['true', q(encodeToken({ zone, day, segment: 0, index: count, page: 2 })), start];
      ctx.countFault('more');
    } else if (fault.kind === 'null-fields') {
      fields = ['null', 'null', 'null'];
      ctx.countFault('null-fields');
    }
  }
  if (!fields) return ']}';
  const [hasMoreData, continuationToken, startToken] = fields;
  return `],"hasMoreData":${hasMoreData},"continuationToken":${continuationToken},"startToken":${startToken}}`;
}

export function originErrorLogs(ctx: HandlerContext, zone: number, date: string): Reply {
  const parsed = pathDay(date);
  if (!parsed) return problem(400, BAD_DATE, ctx.instance, ctx.echo);
  const day: Day = parsed;
  if (!ctx.data.knows('origin', zone)) return statusOnly(404, ctx.echo);
  const { data, now } = ctx;
  const count = data.count('origin', zone, day, now);
  const end = tail(ctx, zone, day, count);
  function* chunks(): Generator<string> {
    yield '{"logs":[';
    let batch: string[] = [];
    let first = true;
    for (const entry of data.entryJsons('origin', zone, day, now)) {
      batch.push(entry);
      if (batch.length === CHUNK_ENTRIES) {
        yield (first ? '' : ',') + batch.join(',');
        first = false;
        batch = [];
      }
    }
    if (batch.length > 0) yield (first ? '' : ',') + batch.join(',');
    yield end;
  }
  return { ...json(200, ''), body: chunks(), entries: count };
}
