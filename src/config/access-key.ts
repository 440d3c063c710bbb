// The commands that call the API check for a key at start: without one, the first request would only
// come back as an HTTP 401 ("check the access key"), after the engine, Redis and the queue were up.
import { ConfigError } from '../errors/index.js';
import { configPath } from './load.js';
import type { Config } from './schema.js';

/** Returns the configured access key; throws a ConfigError naming where to set one when there is none. */
export function requireAccessKey(config: Pick<Config, 'api' | 'origin'>): string {
  const key = config.api.accessKey;
  if (key) return key;
  // No file found: say where edgelog looked (the working directory's), not only the file's name.
  const file =
    config.origin === 'defaults'
      ? `${configPath()} (no configuration file there; or the file given by --config)`
      : config.origin;
  throw new ConfigError(
    `no API access key configured: set api.accessKey in ${file}, or the EDGELOG_ACCESS_KEY environment variable`,
  );
}
