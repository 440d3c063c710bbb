// Pure: after each Shield page, decide whether to fetch another one, stop, or fail the day.
import { isWellFormed } from '../api/paths.js';

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
  | {
      kind: 'error';
      reason: 'token-loop' | 'empty-page-with-more' | 'page-cap' | 'more-without-token' | 'unusable-token';
      message: string;
    };

/**
 * API-NOTES: stop when hasMoreData is false (or missing). A page that claims more data with an empty or
 * null token, or with a token that cannot be sent, breaks the paging (the day is not complete); a token
 * we already asked for would loop forever, an empty page that claims more data would too, and the page
 * cap bounds a runaway.
 */
export function decideNextPage(page: PageSummary, state: PagingState): PageDecision {
  const token = page.continuationToken ?? '';
  if (page.hasMoreData !== true) return { kind: 'done' };
  // More is announced with no way to ask for it: the day cannot be complete.
  if (token === '') {
    return {
      kind: 'error',
      reason: 'more-without-token',
      message: `page ${state.pages} says it has more data but gives no continuation token; stopped`,
    };
  }
  // A lone surrogate (JSON can carry one) cannot be percent-encoded, so it cannot be sent back.
  if (!isWellFormed(token)) {
    return {
      kind: 'error',
      reason: 'unusable-token',
      message: `page ${state.pages} gives a continuation token that is not well-formed Unicode (it cannot be sent back); stopped`,
    };
  }
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
