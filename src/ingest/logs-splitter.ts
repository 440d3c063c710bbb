// Pure: splits a response body of the form `{ …, "logs": [ {…}, {…}, … ], … }`, fed in chunks as it
// arrives, into the text of each element of the top-level `logs` array and the rest of the object (with
// `"logs": []`). A day of origin errors is one answer of tens of megabytes: this way it is never held
// whole, as text or as objects.
//
// The scanner tracks strings and nesting only; it does not validate. Each element and the rest are then
// given to JSON.parse, which does: together they cover every character of the document. What the
// scanner cannot follow (not an object, unbalanced brackets, an empty element) throws SplitError.

export class SplitError extends Error {
  override name = 'SplitError';
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJ = 123;
const CLOSE_OBJ = 125;
const OPEN_ARR = 91;
const CLOSE_ARR = 93;
const COMMA = 44;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

export class LogsSplitter {
  private depth = 0;
  private offset = 0; // characters consumed before the current chunk, for messages
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private key: string[] | null = null; // the top-level key being read, in pieces
  private keyFrom = 0;
  private lastKey = '';
  /** Where we are with respect to the logs array. */
  private phase: 'before' | 'inside' | 'after' = 'before';
  private element: string[] | null = null; // the element being read, in pieces
  private afterComma = false;
  private readonly rest: string[] = [];
  private ended = false;

  /** Consumes the next piece of the document; returns the elements it completed, in order. */
  push(chunk: string): string[] {
    const out: string[] = [];
    // Pieces of the chunk go to the element being read (inside the array) or to the rest (outside).
    let from = 0;
    const flush = (to: number) => {
      if (to <= from) return;
      if (this.element) this.element.push(chunk.slice(from, to));
      else if (this.phase !== 'inside') this.rest.push(chunk.slice(from, to));
      from = to;
    };
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.key) {
            this.key.push(chunk.slice(this.keyFrom, i));
            this.lastKey = this.key.join('');
            this.key = null;
            this.expectKey = false;
          }
        }
        continue;
      }
      if (isSpace(c)) continue;
      if (this.ended) throw this.fail('characters after the end of the document', i);
      if (this.phase === 'inside' && this.depth === 2 && !this.element && c !== CLOSE_ARR && c !== COMMA) {
        // The first character of an element.
        flush(i);
        this.element = [];
        from = i;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.expectKey) {
            this.key = [];
            this.keyFrom = i + 1;
          }
          break;
        case OPEN_OBJ:
        case OPEN_ARR:
          if (this.depth === 0 && c !== OPEN_OBJ) throw this.fail('the document is not a JSON object', i);
          this.depth++;
          if (this.depth === 1) this.expectKey = true;
          else if (this.depth === 2 && c === OPEN_ARR && this.lastKey === 'logs' && this.phase === 'before') {
            flush(i + 1); // keep the '[' in the rest
            this.phase = 'inside';
          }
          break;
        case CLOSE_OBJ:
        case CLOSE_ARR:
          if (this.depth === 2 && this.phase === 'inside') {
            if (this.element) out.push(this.take(chunk, from, i));
            else if (this.afterComma) throw this.fail('an empty element in "logs"', i);
            from = i; // the ']' goes to the rest
            this.phase = 'after';
          }
          this.depth--;
          if (this.depth < 0) throw this.fail('unbalanced brackets', i);
          if (this.depth === 0) this.ended = true;
          break;
        case COMMA:
          if (this.depth === 1) this.expectKey = true;
          else if (this.depth === 2 && this.phase === 'inside') {
            if (!this.element) throw this.fail('an empty element in "logs"', i);
            out.push(this.take(chunk, from, i));
            from = i + 1; // the comma between elements is dropped
            this.afterComma = true;
          }
          break;
        default:
          break;
      }
    }
    flush(chunk.length);
    if (this.key) {
      this.key.push(chunk.slice(this.keyFrom));
      this.keyFrom = 0;
    }
    this.offset += chunk.length;
    return out;
  }

  /** The rest of the document, once it is complete. */
  end(): string {
    if (!this.ended || this.inString) throw this.fail('the document ends early (truncated?)', 0);
    return this.rest.join('');
  }

  /** Completes the element being read, which runs up to (not including) `i`. */
  private take(chunk: string, from: number, i: number): string {
    this.element!.push(chunk.slice(from, i));
    // JSON's whitespace only: trimEnd() would also drop U+2028, NBSP and the like, which JSON refuses
    // between elements (a body JSON.parse refuses must not decode).
    const joined = this.element!.join('');
    let end = joined.length;
    while (end > 0 && isSpace(joined.charCodeAt(end - 1))) end--;
    const text = joined.slice(0, end);
    this.element = null;
    return text;
  }

  private fail(what: string, i: number): SplitError {
    return new SplitError(`${what} at character ${this.offset + i}`);
  }
}

/** Splits a whole document at once (tests, small bodies). */
export function splitLogs(text: string): { elements: string[]; rest: string } {
  const splitter = new LogsSplitter();
  const elements = splitter.push(text);
  return { elements, rest: splitter.end() };
}
