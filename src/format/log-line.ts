// Pure: one pino JSON record as a short line for a person at a terminal, e.g.
//   12:04:05 WARN  Redis at redis://127.0.0.1:6379 is unreachable; using … configured=redis://…
// The record is the one pino wrote, so redaction has already happened.

export interface LogLineOptions {
  /** ANSI colours for the level (and dim fields). @defaultValue false */
  color?: boolean;
  /** Print an error's stack under the line. @defaultValue false */
  stack?: boolean;
  /** Longest value printed of a field; longer ones are cut with "…". @defaultValue 80 */
  maxValue?: number;
}

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

/** A field's value: bare when it is one word, JSON otherwise, cut to `max` characters. */
export function fieldValue(value: unknown, max = 80): string {
  const text =
    typeof value === 'string'
      ? /^[^\s"=]+$/.test(value)
        ? value
        : JSON.stringify(value)
      : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface SerializedError {
  type?: unknown;
  message?: unknown;
  stack?: unknown;
}

function errorText(err: unknown): { line: string; stack?: string } {
  if (typeof err !== 'object' || err === null) return { line: fieldValue(err) };
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
  if (typeof record.msg === 'string' && record.msg !== '') parts.push(record.msg);
  const fields = Object.entries(record)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value, opts.maxValue)}`);
  const err = record.err === undefined ? undefined : errorText(record.err);
  if (err) fields.push(`err=${fieldValue(err.line, opts.maxValue ?? 200)}`);
  if (fields.length > 0) parts.push(paint(DIM, fields.join(' ')));
  let text = `${parts.join(' ')}\n`;
  if (opts.stack && err?.stack) text += `${err.stack.replace(/^/gm, '    ')}\n`;
  return text;
}

/** Formats pino's raw line; a line that is not a JSON object is passed through unchanged. */
export function formatLogText(line: string, opts: LogLineOptions = {}): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return line.endsWith('\n') ? line : `${line}\n`;
  return formatLogLine(record as Record<string, unknown>, opts);
}

/** NO_COLOR (https://no-color.org): any non-empty value turns colours off. */
export function colorWanted(env: NodeJS.ProcessEnv): boolean {
  return !env.NO_COLOR;
}
