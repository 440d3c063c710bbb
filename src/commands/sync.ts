// `edgelog sync`: fetch chosen days now, wait, print what happened; exit 0 only if every day succeeded.
// The plan is sync/sync-plan.ts, the work sync/execute-sync.ts, the summary sync/sync-summary.ts.
import { Command, Option } from 'commander';
import { configPath, noConfigFile, requireAccessKey } from '../config/index.js';
import { startEngine } from '../engine.js';
import { InterruptedError, UsageError } from '../errors/index.js';
import { executeSync } from '../sync/execute-sync.js';
import { syncPlan, type SyncAsk } from '../sync/sync-plan.js';
import { commandContext, dayArg, idListArg, intArg, printJson } from './shared.js';
import { formatOption, jsonOption, outputFormat } from './args.js';
import { programName } from './program-name.js';
import { untilSignal } from './signals.js';

interface SyncOptions extends SyncAsk {
  concurrency?: number;
  format?: string;
  json?: boolean;
  /** False with --no-progress. */
  progress?: boolean;
}

export function syncCommand(): Command {
  return new Command('sync')
    .description('fetch the given UTC days of the configured zones now, wait, and print a summary')
    .option('--date <day>', 'one UTC day, YYYY-MM-DD (default: today)', dayArg)
    .option('--from <day>', 'first UTC day of a range', dayArg)
    .option('--to <day>', 'last UTC day of a range (default: today)', dayArg)
    .addOption(
      new Option('--source <source...>', 'origin, shield and/or guardian (default: origin shield)').choices([
        'origin',
        'shield',
        'guardian',
      ]),
    )
    .option('--zone <id...>', 'only these zone ids (comma-separated or repeated)', idListArg)
    .option('--concurrency <n>', 'jobs at once in this process (default: worker.concurrency)', intArg)
    .addOption(formatOption())
    .addOption(jsonOption())
    .option('--no-progress', 'no progress on stderr (a redrawn line on a terminal, else a line every 10 s)')
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { config, logger } = commandContext(cmd, undefined, { terminalLogLevel: 'warn' });
      const plan = syncPlan(config, opts, Date.now());
      if (plan.days.length === 0 && plan.guardianZones.length === 0) {
        throw new UsageError(
          config.origin === 'defaults'
            ? `no zones to sync: ${noConfigFile(configPath(), programName())}`
            : `no zones to sync: add pullZones / shieldZones to ${config.origin}`,
        );
      }
      requireAccessKey(config);
      const concurrency = opts.concurrency || undefined;
      // The store is sized for the jobs this sync runs at once, which may be more than worker.concurrency.
      let retries = 0;
      const engine = await startEngine(config, logger, {
        ...(concurrency ? { concurrency } : {}),
        onRetry: () => retries++,
      });
      const stop = untilSignal();
      const interrupted = new AbortController();
      void stop.promise.then(() => interrupted.abort());
      try {
        let done: Awaited<ReturnType<typeof executeSync>>;
        try {
          done = await executeSync(engine, plan, {
            concurrency,
            signal: interrupted.signal,
            ...(opts.progress === false ? {} : { progress: process.stderr }),
            ...(process.stdout.isTTY && process.stdout.columns ? { width: process.stdout.columns } : {}),
            retries: () => retries,
          });
        } catch (err) {
          if (!(err instanceof InterruptedError)) throw err;
          process.stderr.write(
            'edgelog: interrupted; days in progress keep their checkpoints and resume on the next run\n',
          );
          process.exitCode = 130;
          return;
        }
        if (outputFormat(opts) === 'json') printJson(done.summary);
        else process.stdout.write(`${done.text}\n`);
        if (!done.summary.ok) process.exitCode = 1;
      } finally {
        stop.dispose();
        await engine.close();
        logger.flush();
      }
    });
}
