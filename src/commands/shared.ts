// What every command needs: the global options, the configuration and a logger (argument parsers: args.ts).
import type { Command } from 'commander';
import { loadConfig, type Config, type ConfigInput } from '../config/index.js';
import { createLogger, type Logger } from '../logger.js';

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

export { idArg, idListArg, dayArg, durationArg, intArg, numberArg, printJson } from './args.js';
