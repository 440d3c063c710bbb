// Fetching a zone-day from the API, decoded into rows: the Shield pages of a pass one after another
// (each next page requested before the current one is handed over, so the API works while the caller
// stores), and an origin day's answer in batches.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ApiClient } from '../api/index.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import { PagingError } from '../errors/index.js';
import type { Day } from '../time/utc-day.js';
import { decodeShieldPage, OriginBodyDecoder } from './decode-page.js';
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

export type FetchClient = Pick<ApiClient, 'shieldEventLogsWith' | 'originErrorLogsStream'>;

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

/**
 * Streams an origin day's answer through `store`, a batch of rows at a time, as the body arrives. When a
 * read fails and the request is retried, `restart` is called and the rows come again from the start
 * (storing is idempotent). Returns the answer's (undocumented) paging fields.
 */
export function streamOriginDay(
  client: FetchClient,
  q: OriginQuery,
  store: (batch: OriginBatch, first: boolean) => void,
  restart: () => void,
  signal?: AbortSignal,
): Promise<PagingFields> {
  return client.originErrorLogsStream(
    q.zone,
    q.day,
    async (body, attempt) => {
      if (attempt > 1) restart();
      const decoder = new OriginBodyDecoder(q.batchSize);
      const utf8 = new TextDecoder();
      let first = true;
      const put = (batch: OriginBatch) => {
        store(batch, first);
        first = false;
      };
      for await (const chunk of body) {
        for (const batch of decoder.push(utf8.decode(chunk, { stream: true }))) put(batch);
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      }
      for (const batch of decoder.push(utf8.decode())) put(batch);
      const { batch, paging } = decoder.end();
      // The last rows; for an empty day an empty batch, so the call is still counted.
      if (batch.logId.length > 0 || first) put(batch);
      return paging;
    },
    { signal },
  );
}
