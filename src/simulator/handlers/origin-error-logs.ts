// 4.2 Origin error logs: one answer holds the whole (logged so far) day, streamed in chunks so a large
// day never sits in memory. Odd zone ids also carry the undocumented paging fields (API-NOTES).
import type { Day } from '../../time/utc-day.js';
import { q } from '../json-text.js';
import { json, problem, statusOnly, type Reply } from '../replies.js';
import { encodeToken } from '../tokens.js';
import { BAD_DATE, pathDay, type HandlerContext } from './context.js';

const CHUNK_ENTRIES = 500;

export function originErrorLogs(ctx: HandlerContext, zone: number, date: string): Reply {
  const parsed = pathDay(date);
  if (!parsed) return problem(400, BAD_DATE, ctx.instance);
  const day: Day = parsed;
  if (!ctx.data.knows('origin', zone)) return statusOnly(404);
  const { data, now } = ctx;
  const tail =
    zone % 2 === 1
      ? `],"hasMoreData":false,"continuationToken":null,"startToken":${q(
          encodeToken({ zone, day, segment: 0, index: 0, page: 1 }),
        )}}`
      : ']}';
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
    yield tail;
  }
  return { ...json(200, ''), body: chunks(), entries: data.count('origin', zone, day, now) };
}
