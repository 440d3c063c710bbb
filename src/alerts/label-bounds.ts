// Pure: how much of a sql rule's row an alert keeps. A row's labels are archived text (a WAF log's URL,
// a header): unbounded, one row of 2 MB labels times 250 rows took `alerts check` to 2.1 GB, and a
// silence's regular expression runs over each. The bounds keep an evaluation's memory and time small
// whatever the statement returns; what they cut is said (a problem logged, a mark in the notice).
import { detachedSlice } from '../values/detached-text.js';

/** Characters of one label value kept (Alertmanager has no bound; a URL or a user agent fits). */
export const MAX_LABEL_CHARS = 4096;
/** Labels (columns) of one row kept. */
export const MAX_LABELS = 32;
/** Characters of a label name kept (Prometheus names are short; a column alias need not be). */
export const MAX_LABEL_NAME_CHARS = 128;
/**
 * Characters of all the labels of one evaluation's rows (after cutting): rows past it are left out,
 * as rows past maxRows are, and said. 250 rows of 32 labels at the bound fit.
 */
export const MAX_RESULT_CHARS = 32 * 1024 * 1024;
/** Characters of a notice's summary (a row's labels written out); the rest is cut, with the mark. */
export const MAX_SUMMARY_CHARS = 2048;
/** Characters of a hook's rendered text (templates.ts); the rest is cut, with the mark, and said. */
export const MAX_RENDERED_CHARS = 32 * 1024;
/** What marks a cut value: its end, so that the kept start still reads as the value. */
export const CUT_MARK = '…';

/** `text` cut to `max` characters (the mark included), on a code point boundary; as is when it fits. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - CUT_MARK.length;
  // Not between the two halves of a surrogate pair: that would leave a lone half.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return detachedSlice(text, 0, end) + CUT_MARK;
}
