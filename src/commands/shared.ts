// What every command needs: the global options, the configuration, a logger, and argument parsers.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { loadConfig, parseDuration, type Config, type ConfigInput } from '../config/index.js';
import type { UsageError } from '../errors/index.js';
import { createLogger, type Logger } from '../logger.js';
import { parseDay, type Day } from '../time/utc-day.js';

export interface GlobalOptions {
  config?: string;
  logLevel?: string;
}

export interface CommandContext {
  config: Config;
  /** Built on first use: a command that never logs does not load pino. */
  logger: Logger;
}

export interface ContextOptions {
  /**
   * The level when stderr is a terminal and `--log-level` is not given: `demo` and `sync` show a person
   * only warnings beside their own output. @defaultValue the configured log.level
   */
  terminalLogLevel?: string;
}

/** Pure: `--log-level` wins; then, on a terminal, the command's own default; then log.level. */
export function logLevelFor(
  flag: string | undefined,
  configured: string,
  terminal: { isTTY: boolean; level?: string },
): string {
  return flag ?? (terminal.isTTY && terminal.level ? terminal.level : configured);
}

/** Loads the configuration named by the global options (plus overrides) and builds the logger. */
export function commandContext(
  cmd: Command,
  overrides?: ConfigInput,
  context: ContextOptions = {},
): CommandContext {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  const config = loadConfig({
    ...(opts.config ? { path: opts.config } : {}),
    ...(overrides ? { overrides } : {}),
  });
  const level = logLevelFor(opts.logLevel, config.log.level, {
    isTTY: process.stderr.isTTY === true,
    ...(context.terminalLogLevel ? { level: context.terminalLogLevel } : {}),
  });
  let logger: Logger | undefined;
  return {
    config,
    get logger() {
      return (logger ??= createLogger({ level }));
    },
  };
}

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

/** Writes a JSON value to stdout, pretty-printed. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
