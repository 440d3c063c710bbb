// Fetching a zone-day from the API, decoded into rows: the Shield pages of a pass one after another
// (each next page requested before the current one is handed over, so the API works while the caller
// stores), and an origin day's answer in batches.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ApiClient } from '../api/index.js';
import type { PagingFields } from '../api/schemas/log-pages.js';
import type { PagingError } from '../errors/index.js';
import type { Day } from '../time/utc-day.js';
import {
  batchEntries,
  decodeShieldPage,
  OriginBodyDecoder,
  scanShieldPage,
  shieldPageParts,
  WHOLE_PAGE_BYTES,
  type DecodedShieldPage,
  type LargeShieldPage,
} from './decode-page.js';
import { decideNextPage } from './paging.js';
import { guessPaging } from './peek-paging.js';
import type { OriginBatch, ShieldBatch } from '../store/rows.js';
import type { PageCounts } from '../store/store.js';

export interface ShieldPagesQuery {
  zone: number;
  day: Day;
  /** Token of the first page to fetch: '' for the start of the day, or a saved checkpoint. */
  startToken: string;
  /** Pages of this pass already stored (when resuming), so page numbers and the cap continue. */
  donePages: number;
  pageCap: number;
  /** Bytes from which a page is decoded and handed over in parts. @defaultValue WHOLE_PAGE_BYTES (16 MiB) */
  wholePageBytes?: number;
  /** Entries per part of such a page. @defaultValue 1000 */
  partRows?: number;
}

/** Why a pass stopped before the API said it was done (a loop, an empty page claiming more, the cap). */
export interface PagingStop {
  reason: PagingError['reason'];
  message: string;
}

export interface ShieldPageResult {
  /** The page's number in the pass, 1-based. */
  page: number;
  /** The token it was requested with. */
  token: string;
  /** The next page's token; null after the last page. */
  nextToken: string | null;
  batch: ShieldBatch;
  /** Set on the last page of a pass that paging anomaly stopped: the page is stored, then the pass ends. */
  stop?: PagingStop;
  /**
   * Set on the parts of a page too large to decode whole (decode-page.ts WHOLE_PAGE_BYTES), yielded one
   * after another, each to be stored on its own: `more` while parts of the page follow (the checkpoint
   * stays on this page's token, and nothing is counted yet), then the last part with the whole page's
   * counts. `stop` is on the last part only.
   */
  part?: { more: true } | { more: false; counts: PageCounts };
}

export interface OriginQuery {
  zone: number;
  day: Day;
  batchSize: number;
}

export type FetchClient = Pick<ApiClient, 'shieldEventLogsWith' | 'originErrorLogsStream'>;

interface Request {
  token: string;
  page: Promise<DecodedShieldPage | LargeShieldPage>;
  /** The next page's token as guessed from this page's bytes, when it could not be requested yet. */
  guess?: string;
}

/**
 * Every page of a pass, in order. A page that reveals a paging anomaly (a repeating token, an empty
 * page claiming more, the page cap) is still yielded, as the last one, with `stop` saying why.
 *
 * Pages are requested ahead of the caller: as soon as a page's bytes arrive, the next page's token is
 * guessed from them (peek-paging.ts) and requested while this one is decoded and the caller stores the
 * one before, up to `lookahead` pages. Each guess is checked against the decoded page; a wrong one is
 * aborted and the right token requested, so a guess can cost a request but never a page.
 */
export async function* shieldPages(
  client: FetchClient,
  q: ShieldPagesQuery,
  signal?: AbortSignal,
  lookahead = 2,
): AsyncGenerator<ShieldPageResult, void> {
  // Requests started and not yet taken, in page order; all under `pass`, aborted together on a wrong
  // guess, when the caller's signal fires, or when the caller stops early.
  const ahead: Request[] = [];
  let newest: Request | undefined;
  let pass = new AbortController();
  const stopPass = () => pass.abort(signal?.reason);
  signal?.addEventListener('abort', stopPass, { once: true });
  if (signal?.aborted) stopPass();

  const request = (token: string): void => {
    const own = pass.signal;
    const req: Request = {
      token,
      page: client.shieldEventLogsWith(
        q.zone,
        q.day,
        token,
        (body) => {
          const guess = guessPaging(body);
          // Only the newest request guesses (and a retried body does not guess twice).
          if (guess?.hasMoreData && guess.continuationToken && !own.aborted && newest === req) {
            if (ahead.length < lookahead) request(guess.continuationToken);
            else req.guess = guess.continuationToken;
          }
          // A page too large to decode whole is checked now and decoded in parts as it is handed over.
          return Promise.resolve(
            body.byteLength >= (q.wholePageBytes ?? WHOLE_PAGE_BYTES)
              ? scanShieldPage(new Uint8Array(body))
              : decodeShieldPage(Buffer.from(body).toString('utf8')),
          );
        },
        { signal: own },
      ),
    };
    req.page.catch(() => {}); // handled when taken; ignored when discarded
    ahead.push(req);
    newest = req;
  };

  try {
    const seen = new Set<string>();
    let pages = q.donePages;
    request(q.startToken);
    for (;;) {
      const current = ahead.shift()!;
      if (newest?.guess !== undefined) {
        // There is room again for the guess the newest request could not act on.
        const token = newest.guess;
        delete newest.guess;
        request(token);
      }
      const page = await current.page;
      pages++;
      seen.add(current.token);
      const entries = 'batch' in page ? batchEntries(page.batch) : page.entries;
      const decision = decideNextPage(
        { entries, hasMoreData: page.hasMoreData, continuationToken: page.continuationToken },
        { requestedToken: current.token, pages, seenTokens: seen, pageCap: q.pageCap },
      );
      if (decision.kind === 'error') {
        // The page's entries are sent all the same: stored first, then the pass ends.
        const stop = { reason: decision.reason, message: decision.message };
        yield* results(page, { page: pages, token: current.token, nextToken: null, stop }, q.partRows);
        return;
      }
      const nextToken = decision.kind === 'next' ? decision.token : null;
      if (ahead.length > 0 && ahead[0]!.token !== nextToken) {
        // A wrong guess: drop everything requested after this page.
        pass.abort();
        ahead.length = 0;
        pass = new AbortController();
      }
      if (nextToken !== null && ahead.length === 0) {
        request(nextToken);
        // undici writes the request on a later turn of the event loop: let it go out before the
        // caller's synchronous store, or the API only starts on the next page once that is done.
        await yieldToLoop();
      }
      yield* results(page, { page: pages, token: current.token, nextToken }, q.partRows);
      if (nextToken === null) return;
    }
  } finally {
    pass.abort();
    signal?.removeEventListener('abort', stopPass);
  }
}

/** A page as one result, or a large one as its parts (each part a batch of `partRows` entries at most). */
function* results(
  page: DecodedShieldPage | LargeShieldPage,
  r: Omit<ShieldPageResult, 'batch' | 'part'>,
  partRows = 1000,
): Generator<ShieldPageResult> {
  if ('batch' in page) {
    yield { ...r, batch: page.batch };
    return;
  }
  const { stop: _stop, ...rest } = r;
  const counts: PageCounts = { entries: 0, malformed: 0, quarantined: 0 };
  let held: ShieldBatch | undefined;
  for (const batch of shieldPageParts(page, partRows)) {
    if (held) yield { ...rest, batch: held, part: { more: true } };
    held = batch;
    counts.entries += batchEntries(batch);
    counts.malformed += batch.parseError.reduce((n, e) => n + (e === null ? 0 : 1), 0);
    counts.quarantined += batch.rejected.length;
  }
  yield { ...r, batch: held!, part: { more: false, counts } };
}

/**
 * Streams an origin day's answer through `store`, a batch of rows at a time, as the body arrives. When a
 * read fails and the request is retried, `restart` is called and the rows come again from the start
 * (storing is idempotent). Returns the answer's (undocumented) paging fields.
 */
export function streamOriginDay(
  client: FetchClient,
  q: OriginQuery,
  store: (batch: OriginBatch, first: boolean) => void | Promise<void>,
  restart: () => void | Promise<void>,
  signal?: AbortSignal,
): Promise<PagingFields> {
  return client.originErrorLogsStream(
    q.zone,
    q.day,
    async (body, attempt) => {
      if (attempt > 1) await restart();
      const decoder = new OriginBodyDecoder(q.batchSize);
      const utf8 = new TextDecoder();
      let first = true;
      // `store` may wait (a page thread waits until the main thread has room), and the body with it.
      const put = async (batch: OriginBatch) => {
        const wait = store(batch, first);
        first = false;
        if (wait) await wait;
      };
      for await (const chunk of body) {
        for (const batch of decoder.push(utf8.decode(chunk, { stream: true }))) await put(batch);
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      }
      for (const batch of decoder.push(utf8.decode())) await put(batch);
      const { batch, paging } = decoder.end();
      // The last rows; for an empty day an empty batch, so the call is still counted.
      if (batchEntries(batch) > 0 || first) await put(batch);
      return paging;
    },
    { signal },
  );
}
