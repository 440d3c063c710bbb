// Pure: the streaming output formats of `edgelog query`. An encoder turns one row at a time into text,
// so a million-row result never has to be held in memory.
import { csvField, jsonValue, uniqueNames, type SqlValue } from './values.js';

export type StreamFormat = 'json' | 'ndjson' | 'csv';

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
  return `${text}}`;
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

/** RFC 4180 CSV: a header row, CRLF line ends. */
export function csvEncoder(columns: readonly string[]): RowEncoder {
  const line = (values: readonly SqlValue[]) => `${values.map(csvField).join(',')}\r\n`;
  return { start: () => line(columns), row: (values) => line(values), end: () => '' };
}

export const ENCODERS: Record<StreamFormat, (columns: readonly string[]) => RowEncoder> = {
  json: jsonEncoder,
  ndjson: ndjsonEncoder,
  csv: csvEncoder,
};
