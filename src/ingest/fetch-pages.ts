// Fetching a zone-day from the API, decoded into rows: the Shield pages of a pass one after another
// (each next page requested before the current one is handed over, so the API works while the caller
// stores), and an origin day's answer in batches.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ApiClient } from '../api/index.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import { PagingError, ResponseError } from '../errors/index.js';
import type { Day } from '../time/utc-day.js';
import { DecodeError, decodeOriginBody, decodeShieldPage } from './decode-page.js';
import { decideNextPage } from './paging.js';
import type { OriginBatch, ShieldBatch } from './row-batch.js';

export interface ShieldPagesQuery {
  zone: number;
  day: Day;
  /** Token of the first page to fetch: '' for the start of the day, or a saved checkpoint. */
  startToken: string;
  /** Pages of this pass already stored (when resuming), so page numbers and the cap continue. */
  donePages: number;
  pageCap: number;
}

export interface ShieldPageResult {
  /** The page's number in the pass, 1-based. */
  page: number;
  /** The token it was requested with. */
  token: string;
  /** The next page's token; null after the last page. */
  nextToken: string | null;
  batch: ShieldBatch;
}

export interface OriginQuery {
  zone: number;
  day: Day;
  batchSize: number;
}

export type FetchClient = Pick<ApiClient, 'shieldEventLogsWith' | 'originErrorLogsBody'>;

const utf8 = (body: ArrayBuffer) => Buffer.from(body).toString('utf8');

/** Every page of a pass, in order. Throws PagingError on a loop, an empty page claiming more, the cap. */
export async function* shieldPages(
  client: FetchClient,
  q: ShieldPagesQuery,
  signal?: AbortSignal,
): AsyncGenerator<ShieldPageResult, void> {
  const fetch = (token: string) =>
    client.shieldEventLogsWith(
      q.zone,
      q.day,
      token,
      (body) => Promise.resolve(decodeShieldPage(utf8(body))),
      { signal },
    );
  const seen = new Set<string>();
  let token = q.startToken;
  let pages = q.donePages;
  let page = await fetch(token);
  for (;;) {
    pages++;
    seen.add(token);
    const entries = page.batch.logId.length;
    const decision = decideNextPage(
      { entries, hasMoreData: page.hasMoreData, continuationToken: page.continuationToken },
      { requestedToken: token, pages, seenTokens: seen, pageCap: q.pageCap },
    );
    if (decision.kind === 'error') {
      throw new PagingError(decision.reason, decision.message, {
        context: { source: 'shield', zone: q.zone, date: q.day, page: pages },
      });
    }
    const nextToken = decision.kind === 'next' ? decision.token : null;
    const next = nextToken === null ? null : fetch(nextToken);
    next?.catch(() => {}); // handled when awaited below
    // undici writes the request on a later turn of the event loop: let it go out before the caller's
    // synchronous store, or the API only starts on the next page once that is done.
    if (next) await yieldToLoop();
    yield { page: pages, token, nextToken, batch: page.batch };
    if (next === null || nextToken === null) return;
    token = nextToken;
    page = await next;
  }
}

/** An origin day's entries, `batchSize` at a time; returns the answer's (undocumented) paging fields. */
export async function* originBatches(
  client: FetchClient,
  q: OriginQuery,
  signal?: AbortSignal,
): AsyncGenerator<OriginBatch, PagingFields> {
  const body = await client.originErrorLogsBody(q.zone, q.day, { signal });
  const bytes = body.byteLength;
  const batches = decodeOriginBody(utf8(body), q.batchSize);
  for (;;) {
    let next: IteratorResult<OriginBatch, PagingFields>;
    try {
      next = batches.next();
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      throw new ResponseError(
        err.kind,
        `origin error logs of zone ${q.zone} for ${q.day}: ${err.message} (${bytes} bytes)`,
        {
          context: { operation: 'originErrorLogs', zone: q.zone, date: q.day },
          cause: err,
        },
      );
    }
    if (next.done) return next.value;
    yield next.value;
  }
}
