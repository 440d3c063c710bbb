// Pure: after each Shield page, decide whether to fetch another one, stop, or fail the day.

export interface PageSummary {
  /** Entries on the page. */
  entries: number;
  hasMoreData: boolean | null;
  continuationToken: string | null;
}

export interface PagingState {
  /** The token this page was requested with ('' for the first page). */
  requestedToken: string;
  /** Pages fetched so far in this pass, this one included. */
  pages: number;
  /** Tokens already requested in this pass. */
  seenTokens: ReadonlySet<string>;
  pageCap: number;
}

export type PageDecision =
  | { kind: 'next'; token: string }
  | { kind: 'done' }
  | { kind: 'error'; reason: 'token-loop' | 'empty-page-with-more' | 'page-cap'; message: string };

/**
 * API-NOTES: stop when hasMoreData is false or the token is empty or null. A token we already asked for
 * would loop forever, an empty page that claims more data would too, and the page cap bounds a runaway.
 */
export function decideNextPage(page: PageSummary, state: PagingState): PageDecision {
  const token = page.continuationToken ?? '';
  if (page.hasMoreData !== true || token === '') return { kind: 'done' };
  if (token === state.requestedToken || state.seenTokens.has(token)) {
    return {
      kind: 'error',
      reason: 'token-loop',
      message: `continuation token repeats after page ${state.pages} (the API is looping); stopped`,
    };
  }
  if (page.entries === 0) {
    return {
      kind: 'error',
      reason: 'empty-page-with-more',
      message: `page ${state.pages} is empty but claims more data; stopped`,
    };
  }
  if (state.pages >= state.pageCap) {
    return {
      kind: 'error',
      reason: 'page-cap',
      message: `reached the page cap of ${state.pageCap} pages with more data announced; stopped (raise api.pageCap if this day is really that large)`,
    };
  }
  return { kind: 'next', token };
}
