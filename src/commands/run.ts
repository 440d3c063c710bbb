// `edgelog run`: the long-running worker (PM2 runs this).
import { Command } from 'commander';
import { requireAccessKey } from '../config/index.js';
import { startEngine } from '../engine.js';
import { commandContext } from './shared.js';
import { untilSignal } from './signals.js';

export function runCommand(): Command {
  return new Command('run')
    .description(
      'run the worker: reconcile schedulers, catch up missed days, process jobs until SIGINT/SIGTERM',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { config, logger } = commandContext(cmd);
      requireAccessKey(config);
      if (config.pullZones.length === 0 && config.shieldZones.length === 0) {
        logger.warn('no pullZones or shieldZones configured: the worker has nothing to fetch');
      }
      const stop = untilSignal();
      const engine = await startEngine(config, logger, { metrics: true });
      try {
        // First, so that /healthz answers at once and /readyz tells what start-up still lacks.
        const metrics = await engine.serveMetrics();
        await engine.runtime.reconcileSchedulers();
        await engine.runtime.catchUp();
        engine.runtime.startWorker();
        engine.alerts.notifier.startWorker();
        await engine.alerts.notifier.flushOutbox(); // notices a crash left in the outbox
        logger.info(
          {
            redis: engine.redis.display,
            database: config.database.path,
            pullZones: config.pullZones.map((z) => z.id),
            shieldZones: config.shieldZones.map((z) => z.id),
            concurrency: config.worker.concurrency,
            metrics: metrics?.url ?? null,
          },
          'worker running',
        );
        const signal = await stop.promise;
        logger.info(
          { signal, timeoutMs: config.worker.shutdownTimeout },
          'stopping: finishing the pages and deliveries in hand',
        );
      } finally {
        await engine.close();
        stop.dispose();
        logger.info('stopped');
        logger.flush();
      }
    });
}
