// Pure: one pino JSON record as a short line for a person at a terminal, e.g.
//   12:04:05 WARN  Redis at redis://127.0.0.1:6379 is unreachable; using … configured=redis://…
// The record is the one pino wrote, so redaction has already happened. Every text in it may come from
// the API or the archive (a URL, an error body): it is made safe for the terminal (terminal-text.ts).
import { fitText, safeText } from './terminal-text.js';

export interface LogLineOptions {
  /** ANSI colours for the level (and dim fields). @defaultValue false */
  color?: boolean;
  /** Print an error's stack under the line. @defaultValue false */
  stack?: boolean;
  /** Longest value printed of a field; longer ones are cut with "…". @defaultValue 80 */
  maxValue?: number;
}

/**
 * Longest error message printed. An error goes last on its line, whole and unquoted (it is what a
 * person reads first, hint included); this bound only stops a runaway message.
 */
const MAX_ERROR = 2000;

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '\x1b[90m' },
  20: { label: 'DEBUG', color: '\x1b[90m' },
  30: { label: 'INFO', color: '\x1b[32m' },
  40: { label: 'WARN', color: '\x1b[33m' },
  50: { label: 'ERROR', color: '\x1b[31m' },
  60: { label: 'FATAL', color: '\x1b[41;97m' },
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';

/** Keys every line has, or that get their own place in it. */
const OMITTED = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'err']);

/** `12:04:05`, UTC like every other time edgelog prints. */
export function clockTime(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '--:--:--';
  return new Date(ms).toISOString().slice(11, 19);
}

/**
 * A field's value: bare when it is one word, JSON otherwise, escaped for the terminal (JSON.stringify
 * leaves C1 and bidirectional characters as they are), cut to `max` columns.
 */
export function fieldValue(value: unknown, max = 80): string {
  const text =
    typeof value === 'string'
      ? /^[^\s"=]+$/.test(value)
        ? value
        : JSON.stringify(value)
      : (JSON.stringify(value) ?? String(value));
  return fitText(text, max);
}

interface SerializedError {
  type?: unknown;
  message?: unknown;
  stack?: unknown;
}

function errorText(err: unknown): { line: string; stack?: string } {
  if (typeof err !== 'object' || err === null)
    return { line: typeof err === 'string' ? err : fieldValue(err) };
  const e = err as SerializedError;
  const type = typeof e.type === 'string' && e.type !== 'Error' ? `${e.type}: ` : '';
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(err);
  return {
    line: `${type}${message}`,
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
  };
}

/** Formats one record (pino's parsed JSON line) as text ending in a newline. */
export function formatLogLine(record: Record<string, unknown>, opts: LogLineOptions = {}): string {
  const level = LEVELS[record.level as number] ?? { label: fieldValue(record.level ?? '?'), color: '' };
  const paint = (code: string, text: string) => (opts.color && code ? `${code}${text}${RESET}` : text);
  const parts = [clockTime(record.time), paint(level.color, level.label.padEnd(5))];
  if (typeof record.msg === 'string' && record.msg !== '') parts.push(safeText(record.msg));
  const fields = Object.entries(record)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value, opts.maxValue)}`);
  const err = record.err === undefined ? undefined : errorText(record.err);
  if (err) fields.push(`err=${fitText(err.line, MAX_ERROR)}`);
  if (fields.length > 0) parts.push(paint(DIM, fields.join(' ')));
  let text = `${parts.join(' ')}\n`;
  if (opts.stack && err?.stack) text += `${safeText(err.stack, { newlines: true }).replace(/^/gm, '    ')}\n`;
  return text;
}

/** Formats pino's raw line; a line that is not a JSON object is passed through, escaped. */
export function formatLogText(line: string, opts: LogLineOptions = {}): string {
  const asIs = () => safeText(line.endsWith('\n') ? line : `${line}\n`, { newlines: true });
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return asIs();
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return asIs();
  return formatLogLine(record as Record<string, unknown>, opts);
}

/** NO_COLOR (https://no-color.org): any non-empty value turns colours off. */
export function colorWanted(env: NodeJS.ProcessEnv): boolean {
  return !env.NO_COLOR;
}
