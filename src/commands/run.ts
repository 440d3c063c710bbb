// `edgelog run`: the long-running worker (PM2 runs this).
import { Command } from 'commander';
import { configPath, noConfigFile, requireAccessKey } from '../config/index.js';
import { startEngine } from '../engine.js';
import { RedisWatch } from '../redis/redis-watch.js';
import { commandContext } from './shared.js';
import { programName } from './program-name.js';
import { untilParentGone, untilSignal } from './signals.js';
import { readRunFigures, startRunStatus } from './run-status.js';

export function runCommand(): Command {
  return new Command('run')
    .description(
      'run the worker: reconcile schedulers, catch up missed days, process jobs until SIGINT/SIGTERM',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { config, logger } = commandContext(cmd);
      requireAccessKey(config);
      if (config.pullZones.length === 0 && config.shieldZones.length === 0) {
        logger.warn(
          config.origin === 'defaults'
            ? `no pullZones or shieldZones configured: ${noConfigFile(configPath(), programName())}`
            : `no pullZones or shieldZones configured in ${config.origin}: the worker has nothing to fetch`,
        );
      }
      const signals = untilSignal();
      // Started by `npx` or `npm exec` (npm sets npm_command=exec), whose SIGTERM never reaches this
      // process: stop when npm's process is gone, as on SIGTERM. Elsewhere (nohup, setsid) a new parent
      // is no reason to stop.
      const parent = process.env.npm_command === 'exec' ? untilParentGone() : null;
      const stop = {
        promise: parent ? Promise.race([signals.promise, parent.promise]) : signals.promise,
        dispose: () => {
          signals.dispose();
          parent?.dispose();
        },
      };
      const engine = await startEngine(config, logger, { metrics: true });
      // Schedulers, a plan per zone and the notices not delivered yet whose jobs are not in Redis: put
      // into Redis now, and again whenever Redis comes back from an outage or without its data.
      const watch = new RedisWatch({
        target: engine.redis.target,
        prefix: config.redis.prefix,
        outage: engine.redisOutage,
        logger,
        restore: async () => {
          await engine.runtime.replan();
          await engine.alerts.notifier.rehandOutbox();
        },
      });
      // Whether the worker ran: one that failed to start says why (the CLI's line), not that it stopped.
      let running = false;
      let web: { url: string; close(): Promise<void> } | null = null;
      try {
        // First, so that /healthz answers at once and /readyz tells what start-up still lacks.
        const metrics = await engine.serveMetrics();
        // The web console (console.listen), a reader of the archive beside the worker.
        if (config.console.listen !== null) {
          const { startConfiguredConsole } = await import('../console/configured.js');
          web = await startConfiguredConsole(config, logger.child({ source: 'console' }));
        }
        // Redis gone at this point does not stop the worker: the watch restores once it is back.
        if ((await Promise.race([watch.start().then(() => null), stop.promise])) !== null) return;
        engine.runtime.startWorker();
        engine.alerts.notifier.startWorker();
        running = true;
        logger.info(
          {
            redis: engine.redis.display,
            archive: engine.store.location,
            pullZones: config.pullZones.map((z) => z.id),
            shieldZones: config.shieldZones.map((z) => z.id),
            concurrency: config.worker.concurrency,
            metrics: metrics?.url ?? null,
            console: web?.url ?? null,
          },
          'worker running',
        );
        // On a terminal, a line that shows the worker lives (the logs there are warnings and errors).
        const status = process.stderr.isTTY ? startRunStatus(() => readRunFigures(engine)) : null;
        const signal = await stop.promise.finally(() => status?.stop());
        logger.info(
          { signal, timeoutMs: config.worker.shutdownTimeout },
          'stopping: finishing the pages and deliveries in hand',
        );
      } finally {
        watch.stop();
        await web?.close();
        await engine.close();
        stop.dispose();
        if (running) logger.info('stopped');
        logger.flush();
        // Everything of ours is closed, the archive too. A Redis client that lost its server between two
        // reconnection attempts may never end (an ioredis limit) and would hold the process: not past this.
        setTimeout(() => process.exit(), 1_000).unref();
      }
    });
}
