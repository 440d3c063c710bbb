// Pure: splits a response body of the form `{ …, "logs": [ {…}, {…}, … ], … }` into the text of each
// element of the top-level `logs` array and the rest of the object (with `"logs": []`), without parsing
// the whole document at once. A day of origin errors is one answer of tens of megabytes: parsed in one
// go it would hold every entry in memory at the same time.
//
// The scanner tracks strings and nesting only; it does not validate. Each element and the rest are then
// given to JSON.parse, which does: together they cover every byte of the document. Anything the scanner
// cannot split (no top-level object, unbalanced brackets) is reported by returning null, and the caller
// falls back to JSON.parse of the whole text for its error.

export interface SplitLogs {
  /** [start, end) offsets of each element of `logs`, in order. */
  elements: Array<[number, number]>;
  /** The document with the logs array emptied, for the other fields. */
  rest: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJ = 123;
const CLOSE_OBJ = 125;
const OPEN_ARR = 91;
const CLOSE_ARR = 93;
const COMMA = 44;
const COLON = 58;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** End (exclusive) of the string literal starting at `i` (a quote), or -1 if it does not end. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

export function splitLogs(text: string): SplitLogs | null {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== OPEN_OBJ) return null;
  let depth = 0;
  let lastKey = '';
  let expectKey = false;
  let arrayStart = -1; // offset of the logs array's '['
  let arrayEnd = -1; // offset after its ']'
  const elements: Array<[number, number]> = [];
  let elementStart = -1;
  let afterComma = false; // an element must follow a comma: `[1,]` and `[,1]` are not JSON
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (depth === 1 && expectKey) {
        lastKey = text.slice(i + 1, end - 1);
        expectKey = false;
      } else if (depth === 2 && arrayStart >= 0 && arrayEnd < 0 && elementStart < 0) {
        elementStart = i;
      }
      i = end - 1;
      continue;
    }
    if (isSpace(c)) continue;
    if (c === OPEN_OBJ || c === OPEN_ARR) {
      depth++;
      if (depth === 1) expectKey = true;
      else if (depth === 2 && c === OPEN_ARR && lastKey === 'logs' && arrayStart < 0) arrayStart = i;
      else if (depth === 3 && arrayStart >= 0 && arrayEnd < 0 && elementStart < 0) elementStart = i;
      continue;
    }
    if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (depth === 2 && arrayStart >= 0 && arrayEnd < 0) {
        if (elementStart >= 0) elements.push([elementStart, trimEnd(text, i)]);
        else if (afterComma) return null;
        elementStart = -1;
        arrayEnd = i + 1;
      }
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        if (arrayStart < 0) return { elements: [], rest: text };
        return { elements, rest: `${text.slice(0, arrayStart)}[]${text.slice(arrayEnd)}` };
      }
      continue;
    }
    if (c === COMMA) {
      if (depth === 1) expectKey = true;
      else if (depth === 2 && arrayStart >= 0 && arrayEnd < 0) {
        if (elementStart < 0) return null;
        elements.push([elementStart, trimEnd(text, i)]);
        elementStart = -1;
        afterComma = true;
      }
      continue;
    }
    if (c === COLON) continue;
    // A scalar element of the array (number, true, false, null): its first character starts it.
    if (depth === 2 && arrayStart >= 0 && arrayEnd < 0 && elementStart < 0) elementStart = i;
  }
  return null;
}

/** The end of an element that runs up to (not including) `i`, without trailing whitespace. */
function trimEnd(text: string, i: number): number {
  let end = i;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}
