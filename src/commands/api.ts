// `edgelog api <operation>`: call one operation of the read API and print its validated JSON.
import { Command } from 'commander';
import { createApiClient, type ApiClient } from '../api/index.js';
import { requireAccessKey } from '../config/index.js';
import { EdgelogError, HttpStatusError, PagingError } from '../errors/index.js';
import { decideNextPage } from '../ingest/paging.js';
import { commandContext, dayArg, idArg, intArg, printJson } from './shared.js';

type Action = (client: ApiClient, signal: AbortSignal, pageCap: number) => Promise<unknown>;

interface CallOptions {
  /**
   * The operation sends the access key (all but video play data), so a missing key is reported before
   * any request. @defaultValue true
   */
  needsKey?: boolean;
  /** What a 404 means, e.g. `pull zone 999 was not found`: said instead of the bare HTTP answer. */
  notFound?: string;
}

/** Runs one API call with the configured client and prints its result. */
async function call(cmd: Command, action: Action, opts: CallOptions = {}): Promise<void> {
  const { config, logger } = commandContext(cmd);
  if (opts.needsKey ?? true) requireAccessKey(config);
  const { client, close } = createApiClient(config.api, logger);
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  try {
    printJson(await action(client, controller.signal, config.api.pageCap));
  } catch (err) {
    if (opts.notFound && err instanceof HttpStatusError && err.status === 404) {
      // The API's own words follow (so the cause is not repeated after them).
      throw new EdgelogError(`${opts.notFound} (check the id): ${err.message}`, { cause: err });
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    await close();
    logger.flush();
  }
}

export function apiCommand(): Command {
  const api = new Command('api').description(
    'call one operation of the read API and print the validated JSON',
  );

  api
    .command('video-play-data')
    .description('play data of one video')
    .argument('<libraryId>', 'video library id', idArg)
    .argument('<videoId>', 'video GUID')
    .option('--token <token>', 'token for token-authenticated libraries')
    .option('--expires <unixSeconds>', 'token expiry, Unix seconds', intArg)
    .action(
      async (libraryId: number, videoId: string, opts: { token?: string; expires?: number }, cmd: Command) =>
        call(cmd, (c, signal) => c.videoPlayData(libraryId, videoId, opts, { signal }), {
          needsKey: false,
          notFound: `video ${videoId} of library ${libraryId} was not found`,
        }),
    );

  api
    .command('origin-errors')
    .description('origin error logs of a pull zone for one UTC day')
    .argument('<pullZoneId>', 'pull zone id', idArg)
    .argument('<date>', 'UTC day, YYYY-MM-DD (MM-dd-yyyy also accepted)', dayArg)
    .action(async (zone: number, date: string, _opts: unknown, cmd: Command) =>
      call(cmd, (c, signal) => c.originErrorLogs(zone, date, { signal }), {
        notFound: `pull zone ${zone} was not found`,
      }),
    );

  api
    .command('edge-script')
    .description('one edge script')
    .argument('<id>', 'script id', idArg)
    .action(async (id: number, _opts: unknown, cmd: Command) =>
      call(cmd, (c, signal) => c.edgeScript(id, { signal }), { notFound: `edge script ${id} was not found` }),
    );

  api
    .command('api-guardian')
    .description('API Guardian metrics of a shield zone')
    .argument('<shieldZoneId>', 'shield zone id', idArg)
    .action(async (zone: number, _opts: unknown, cmd: Command) =>
      call(cmd, (c, signal) => c.apiGuardianMetrics(zone, { signal })),
    );

  api
    .command('ddos-enums')
    .description('the DDoS enumeration catalogue')
    .action(async (_opts: unknown, cmd: Command) => call(cmd, (c, signal) => c.ddosEnums({ signal })));

  api
    .command('event-logs')
    .description('Shield event logs of a zone for one UTC day: one page, or every page with --all')
    .argument('<shieldZoneId>', 'shield zone id', idArg)
    .argument('<date>', 'UTC day, YYYY-MM-DD (MM-dd-yyyy also accepted)', dayArg)
    .option('--token <token>', 'continuation token of the page to fetch (default: the first page)', '')
    .option('--all', 'follow continuation tokens to the end and print every entry')
    .action(async (zone: number, date: string, opts: { token: string; all?: boolean }, cmd: Command) =>
      call(cmd, async (c, signal, pageCap) => {
        if (!opts.all) return c.shieldEventLogs(zone, date, opts.token, { signal });
        // Same stopping rules as ingestion: a loop, an empty page claiming more, or the page cap is an error.
        const logs = [];
        const rejected = [];
        const seen = new Set<string>();
        let token = opts.token;
        let pages = 0;
        for (;;) {
          const page = await c.shieldEventLogs(zone, date, token, { signal });
          pages++;
          seen.add(token);
          logs.push(...page.logs);
          // Entries without a usable key are shown too, with the page they came on and why.
          rejected.push(...page.rejected.map((r) => ({ page: pages, ...r })));
          const next = decideNextPage(
            {
              entries: page.logs.length + page.rejected.length,
              hasMoreData: page.hasMoreData,
              continuationToken: page.continuationToken,
            },
            { requestedToken: token, pages, seenTokens: seen, pageCap },
          );
          if (next.kind === 'done') break;
          if (next.kind === 'error')
            throw new PagingError(next.reason, next.message, { context: { zone, date, page: pages } });
          token = next.token;
        }
        return { pages, count: logs.length, logs, rejected };
      }),
    );

  api
    .command('rate-limit')
    .description('one rate limit rule')
    .argument('<id>', 'rate limit id', idArg)
    .action(async (id: number, _opts: unknown, cmd: Command) =>
      call(cmd, (c, signal) => c.rateLimit(id, { signal }), { notFound: `rate limit ${id} was not found` }),
    );

  return api;
}
