// Argument parsers for commander, and JSON output: light enough for every command to import (no
// configuration schema, no logger).
import { InvalidArgumentError, Option } from 'commander';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../errors/usage-error.js';
import { safeJson } from '../format/terminal-text.js';
import { parseDay, type Day } from '../time/utc-day.js';

/** commander argParser for ids. */
export function idArg(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) <= 0) {
    throw new InvalidArgumentError('expected a positive integer id');
  }
  return Number(value);
}

/** commander argParser for repeatable / comma-separated ids. */
export function idListArg(value: string, previous: number[] = []): number[] {
  return [...previous, ...value.split(',').filter(Boolean).map(idArg)];
}

/** commander argParser for UTC days (YYYY-MM-DD, or MM-dd-yyyy). */
export function dayArg(value: string): Day {
  try {
    return parseDay(value);
  } catch (err) {
    throw new InvalidArgumentError((err as UsageError).message);
  }
}

export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError('expected a duration such as 500ms, 30s, 15m, 1h');
  return ms;
}

export function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function numberArg(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('expected a number');
  return n;
}

/**
 * Writes a JSON value to stdout, pretty-printed; what a terminal would act on (C1, bidirectional
 * characters: API text) as `\u` escapes, the same JSON value.
 */
export function printJson(value: unknown): void {
  process.stdout.write(`${safeJson(JSON.stringify(value, null, 2))}\n`);
}

/** The output format options every printing command takes: `--format`, and `--json` for short. */
export interface FormatOptions {
  format?: string;
  json?: boolean;
}

/** `--format <choices>`, default `fallback`; every printing command has it, with jsonOption. */
export function formatOption(choices: readonly string[] = ['table', 'json'], fallback = 'table'): Option {
  return new Option('--format <format>', `output format: ${choices.join(', ')}`)
    .choices(choices)
    .default(fallback);
}

export function jsonOption(): Option {
  return new Option('--json', 'same as --format json');
}

/** `--json` wins over the default format; given both ways differently, it is a usage error. */
export function outputFormat(opts: FormatOptions, fallback = 'table'): string {
  if (opts.json && opts.format && opts.format !== fallback && opts.format !== 'json') {
    throw new UsageError(`--json and --format ${opts.format} contradict each other`);
  }
  return opts.json ? 'json' : (opts.format ?? fallback);
}
