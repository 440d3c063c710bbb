// The console's composition: checks that it may listen where it is told (before opening anything),
// opens the archive once (the query layer's session: the store's reader, DuckDB loaded and kept), reads
// the archive's schema, and serves. Closes what it opened, in reverse.
import type { ReaderConfig } from '../config/reader-config.js';
import { readArchiveSchema } from '../history/archive-schema.js';
import type { Logger } from '../logger.js';
import { loadAndOpenDuckDb, openArchiveSession } from '../query/archive-session.js';
import { DEFAULT_TABLE_LIMIT } from '../query/run-query.js';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../query/run-bounded.js';
import { ARCHIVE_PROBE_SQL } from '../history/console-statements.js';
import { checkStartup } from './access.js';
import { answer } from './answers.js';
import { DEFAULT_DOWNLOAD_LIMIT } from './downloads.js';
import type { ReadQueue } from './overview.js';
import type { ConsoleAlerts } from './alerts-routes.js';
import type { ListenAddress } from './listen-address.js';
import { queryLane } from './query-lane.js';
import { startConsoleServer, type ConsoleServer } from './server.js';
import { loadAssets } from './static-assets.js';

export interface ConsoleOptions {
  listen: ListenAddress;
  /** EDGELOG_CONSOLE_TOKEN; required off loopback. */
  token: string | undefined;
  /** The variable the token comes from, for messages. @defaultValue TOKEN_ENV */
  tokenEnv?: string;
  logger: Logger;
  /** A statement's working time, ms. @defaultValue DEFAULT_QUERY_TIMEOUT_MS (as `edgelog query`) */
  timeoutMs?: number;
  /** Rows an answer holds at most. @defaultValue DEFAULT_TABLE_LIMIT (as `edgelog query`'s table) */
  rowLimit?: number;
  /** Rows a download holds at most. @defaultValue DEFAULT_DOWNLOAD_LIMIT */
  downloadLimit?: number;
  /** Reads the ingest queue's state for the overview. @defaultValue none: the overview shows no queue */
  queue?: ReadQueue;
  /** The alert rules and the silences' store. @defaultValue none: the alerts page says so */
  alerts?: ConsoleAlerts;
  /** @defaultValue Date.now */
  now?: () => number;
  /** @defaultValue false */
  secureCookie?: boolean;
  /** Told when the reader's role may do more than read. */
  roleWarning?: (warning: string) => void;
}

export async function startConsole(config: ReaderConfig, opts: ConsoleOptions): Promise<ConsoleServer> {
  const token = checkStartup(opts.listen.host, opts.token, opts.tokenEnv);
  const session = await openArchiveSession(config, {
    applicationName: 'edgelog serve',
    ...(opts.roleWarning ? { roleWarning: opts.roleWarning } : {}),
  });
  try {
    const schema = await readArchiveSchema(loadAndOpenDuckDb);
    const queries = queryLane(session.queries);
    const bounds = {
      limit: opts.rowLimit ?? DEFAULT_TABLE_LIMIT,
      timeoutMs: opts.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    };
    // A console over an archive it cannot read would answer every request with the same failure: say
    // it once, now (a missing file, a server that refuses the reader).
    await answer(queries, ARCHIVE_PROBE_SQL, bounds);
    const { assets, missing } = loadAssets();
    if (missing.length > 0)
      opts.logger.warn({ missing }, 'console bundle not built (npm run build): the SQL page has no editor');
    const server = await startConsoleServer({
      listen: opts.listen,
      token,
      assets,
      logger: opts.logger,
      secureCookie: opts.secureCookie ?? false,
      api: {
        queries,
        schema,
        bounds,
        downloadLimit: opts.downloadLimit ?? DEFAULT_DOWNLOAD_LIMIT,
        queue: opts.queue ?? null,
        alerts: opts.alerts ?? null,
        now: opts.now ?? Date.now,
      },
    });
    return {
      url: server.url,
      async close() {
        try {
          await server.close();
        } finally {
          await session.close();
        }
      },
    };
  } catch (err) {
    await session.close();
    throw err;
  }
}
