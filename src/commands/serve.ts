// `edgelog serve`: the web console over the archive (docs/CONSOLE.md), a reader like `query`, until
// SIGINT or SIGTERM.
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../query/run-bounded.js';
import { DEFAULT_TABLE_LIMIT } from '../query/run-query.js';
import { TOKEN_ENV } from '../console/access.js';
import { DEFAULT_LISTEN, parseListen, type ListenAddress } from '../console/listen-address.js';
import { UsageError } from '../errors/usage-error.js';
import { ConfigError } from '../errors/config-error.js';
import { loadConfig, type Config } from '../config/index.js';
import { durationArg, intArg } from './args.js';
import { readerConfig } from './reader-context.js';
import { createLogger } from '../logger.js';
import type { GlobalOptions } from './shared.js';
import { untilSignal } from './signals.js';

interface ServeCliOptions {
  listen?: ListenAddress;
  timeout?: number;
  limit?: number;
  secureCookie?: boolean;
}

function listenArg(value: string): ListenAddress {
  try {
    return parseListen(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/**
 * The whole configuration, for the `console` section and the queue's Redis; undefined when the file is
 * only a reader's (serve still reads the archive then, with the defaults and no queue).
 */
function wholeConfig(cmd: Command): Config | undefined {
  try {
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    return loadConfig(opts.config ? { path: opts.config } : {});
  } catch (err) {
    if (err instanceof ConfigError) return undefined;
    throw err;
  }
}

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve the web console over the archive: ledger calendar, log explorer, SQL (docs/CONSOLE.md)',
    )
    .option(
      '--listen <host:port>',
      `where to listen (default: console.listen, else ${DEFAULT_LISTEN.host}:${DEFAULT_LISTEN.port}); any address but loopback needs ${TOKEN_ENV}`,
      listenArg,
    )
    .option(
      '--timeout <duration>',
      `a statement's time bound (default: console.timeout, ${DEFAULT_QUERY_TIMEOUT_MS / 1000}s, as edgelog query)`,
      durationArg,
    )
    .option(
      '--limit <n>',
      `rows an answer holds at most (default: console.limit, ${DEFAULT_TABLE_LIMIT})`,
      intArg,
    )
    .option('--secure-cookie', 'mark the session cookie Secure (the console is reached through TLS)')
    .action(async (opts: ServeCliOptions, cmd: Command) => {
      const config = readerConfig(cmd);
      const level = cmd.optsWithGlobals<GlobalOptions>().logLevel ?? 'info';
      const logger = createLogger({ level });
      if (opts.limit !== undefined && opts.limit < 1) throw new UsageError('--limit: at least 1');
      const [{ startConsole }, { configuredOptions }] = await Promise.all([
        import('../console/console.js'),
        import('../console/configured.js'),
      ]);
      const whole = wholeConfig(cmd);
      const listen = opts.listen ?? whole?.console.listen ?? DEFAULT_LISTEN;
      const base = whole
        ? configuredOptions(whole, listen, logger)
        : { listen, token: process.env[TOKEN_ENV], logger };
      const stop = untilSignal();
      let server;
      try {
        server = await startConsole(config, {
          ...base,
          ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}),
          ...(opts.limit !== undefined ? { rowLimit: opts.limit } : {}),
          ...(opts.secureCookie === true ? { secureCookie: true } : {}),
          roleWarning: (w) => void process.stderr.write(`edgelog: warning: ${w}\n`),
        });
      } catch (err) {
        stop.dispose();
        if (err instanceof RangeError) throw new UsageError(err.message);
        throw err;
      }
      process.stdout.write(`edgelog serve: the console is at ${server.url}\n`);
      await stop.promise;
      stop.dispose();
      await server.close();
    });
}
