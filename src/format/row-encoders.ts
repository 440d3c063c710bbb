// Pure: the streaming output formats of `edgelog query`. An encoder turns one row at a time into text,
// so a million-row result never has to be held in memory.
import { safeJson, safeText } from '../format/terminal-text.js';
import { csvField, jsonValue, uniqueNames, type SqlValue } from './values.js';

export type StreamFormat = 'json' | 'ndjson' | 'csv';

export interface EncoderOptions {
  /**
   * CSV: every cell exactly as stored. Off, a text cell that starts with `=`, `+`, `-`, `@`, a tab or a
   * carriage return gets a leading `'`, so that a spreadsheet opening the file shows it instead of
   * running it as a formula (OWASP's advice on CSV injection). @defaultValue false
   */
  csvRaw?: boolean;
  /**
   * The output is a person's terminal: CSV cells are escaped for it (terminal-text.ts). JSON and NDJSON
   * need nothing more: they always write what a terminal would act on as `\u` escapes. @defaultValue false
   */
  terminal?: boolean;
}

export interface RowEncoder {
  /** Text before the first row. */
  start(): string;
  /** One row; `index` counts from 0. */
  row(values: readonly SqlValue[], index: number): string;
  /** Text after the last row; `rows` is how many there were. */
  end(rows: number): string;
}

function objectText(keys: readonly string[], values: readonly SqlValue[]): string {
  let text = '{';
  for (let i = 0; i < keys.length; i++)
    text += `${i === 0 ? '' : ','}${keys[i]}:${jsonValue(values[i] ?? null)}`;
  // The same JSON value, with C1 and bidirectional characters as \u escapes (JSON.stringify leaves them).
  return safeJson(`${text}}`);
}

/** One JSON array of objects, one object per line. */
export function jsonEncoder(columns: readonly string[]): RowEncoder {
  const keys = uniqueNames(columns).map((k) => JSON.stringify(k));
  return {
    start: () => '[',
    row: (values, index) => `${index === 0 ? '\n' : ',\n'}${objectText(keys, values)}`,
    end: (rows) => (rows === 0 ? ']\n' : '\n]\n'),
  };
}

/** Newline-delimited JSON: one object per line, nothing around them. */
export function ndjsonEncoder(columns: readonly string[]): RowEncoder {
  const keys = uniqueNames(columns).map((k) => JSON.stringify(k));
  return { start: () => '', row: (values) => `${objectText(keys, values)}\n`, end: () => '' };
}

/** What a spreadsheet takes for the start of a formula (OWASP: = + - @ tab CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 CSV: a header row, CRLF line ends; formulas neutralised unless `csvRaw` (see EncoderOptions). */
export function csvEncoder(columns: readonly string[], opts: EncoderOptions = {}): RowEncoder {
  const field = (value: SqlValue) => {
    // Numbers (a negative one too) and BLOBs (hex) are never text a spreadsheet would run.
    if (typeof value !== 'string') return csvField(value);
    let text = !opts.csvRaw && FORMULA_START.test(value) ? `'${value}` : value;
    if (opts.terminal) text = safeText(text);
    return csvField(text);
  };
  const line = (values: readonly SqlValue[]) => `${values.map(field).join(',')}\r\n`;
  return { start: () => line(columns), row: (values) => line(values), end: () => '' };
}

export const ENCODERS: Record<
  StreamFormat,
  (columns: readonly string[], opts?: EncoderOptions) => RowEncoder
> = {
  json: jsonEncoder,
  ndjson: ndjsonEncoder,
  csv: csvEncoder,
};
