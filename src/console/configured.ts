// The console as the configuration's `console` section describes it (docs/CONFIGURATION.md): where it
// listens, the variable its token comes from, its bounds, and the ingest queue of the configuration's
// Redis for the overview. `edgelog run` serves it beside the worker; `edgelog serve` takes its defaults.
import type { Config } from '../config/index.js';
import { readerConfigOf } from '../config/reader-config.js';
import { ConfigError } from '../errors/config-error.js';
import type { Logger } from '../logger.js';
import { startConsole, type ConsoleOptions } from './console.js';
import type { ListenAddress } from './listen-address.js';
import type { ConsoleServer } from './server.js';

/** The console's options from the configuration (`listen` given: the section's, or a flag's). */
export function configuredOptions(
  config: Config,
  listen: ListenAddress,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): ConsoleOptions {
  const c = config.console;
  return {
    listen,
    token: env[c.tokenEnv],
    tokenEnv: c.tokenEnv,
    logger,
    timeoutMs: c.timeout,
    rowLimit: c.limit,
    secureCookie: c.secureCookie,
    queue: async () => (await import('../queue/queue-status.js')).readQueueStatus(config),
    alerts: {
      rules: config.alerts.rules,
      // The worker's store, as `edgelog alerts silence` opens it.
      async openSilences() {
        const store = await (await import('../store/open-store.js')).openStore(config.database);
        return { silences: store.silences, close: () => store.close() };
      },
    },
  };
}

/**
 * Starts the console of `edgelog run` when `console.listen` is set (null otherwise). A console that may
 * not start (off loopback without its token) is a configuration error naming the key.
 */
export async function startConfiguredConsole(config: Config, logger: Logger): Promise<ConsoleServer | null> {
  const listen = config.console.listen;
  if (listen === null) return null;
  try {
    return await startConsole(readerConfigOf(config), configuredOptions(config, listen, logger));
  } catch (err) {
    if (err instanceof RangeError) throw new ConfigError(`console.listen: ${err.message}`, { cause: err });
    throw err;
  }
}
