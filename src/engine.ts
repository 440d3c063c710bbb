// The composition root of the ingestion engine: wires config, archive, API client, Redis and queue once.
import { AlertEvaluator, type EvaluationScope } from './alerts/evaluator.js';
import { Notifier } from './alerts/notifier.js';
import { compileTemplates } from './alerts/templates.js';
import type { Notice } from './alerts/payload.js';
import { SqlRuleEvaluator } from './alerts/sql-evaluator.js';
import { createApiClient, type ApiClient } from './api/index.js';
import type { Config } from './config/index.js';
import { DayIngestor } from './ingest/day-ingestor.js';
import { defaultPageThreads, PageThreads } from './ingest/page-threads.js';
import type { Logger } from './logger.js';
import { NO_METRICS, type IngestMetrics } from './telemetry/events.js';
import type { Metrics, MetricsServer } from './monitoring/index.js';
import { registerConfigSecrets } from './redact.js';
import type { HandlerDeps } from './queue/handlers.js';
import { IngestRuntime } from './queue/runtime.js';
import { RedisOutage } from './redis/outage.js';
import { resolveRedis, type ResolvedRedis } from './redis/resolve.js';
import { openStore } from './store/open-store.js';
import { historyPath } from './config/history-path.js';
import { HistoryProcess, type HistoryWork } from './history/history-process.js';
import { refusePrunedDay } from './history/thaw.js';
import { ownerId } from './ingest/day-ingestor.js';
import type { AlertsStore, ArchiveStore, RuleQueries } from './store/store.js';
import type { DayKey } from './store/ledger-types.js';

export interface Engine {
  config: Config;
  /** The clock everything in this engine reads. */
  now: () => number;
  logger: Logger;
  /** The archive: SQLite (database.path) or PostgreSQL (database.url). */
  store: ArchiveStore;
  client: ApiClient;
  redis: ResolvedRedis;
  /** Every Redis error of the queues and workers goes here: an outage is logged once, not per retry. */
  redisOutage: RedisOutage;
  /** The shared ingest queue (what `edgelog run` works). */
  runtime: IngestRuntime;
  /**
   * A runtime on a private queue of its own (`edgelog sync`): its worker takes only the jobs added to it.
   * Discard it when done (removes its keys from Redis); the engine closes any left open.
   */
  privateRuntime(name: string): IngestRuntime;
  alerts: {
    repo: AlertsStore<Notice>;
    evaluator: AlertEvaluator;
    notifier: Notifier;
    /** Evaluates rules in scope and hands any new notices to the delivery queue. */
    check(scope?: EvaluationScope): Promise<Awaited<ReturnType<AlertEvaluator['evaluate']>>>;
  };
  /**
   * The engine's own registry, fed by the client, the ingestor, the runtime and the notifier; undefined
   * unless EngineOptions.metrics.
   */
  metrics: Metrics | undefined;
  /**
   * Serves /metrics, /healthz and /readyz on metrics.listen; null when that is null or the engine counts
   * no metrics. Closed with the engine.
   */
  serveMetrics(): Promise<MetricsServer | null>;
  /**
   * The history's work, in a process of its own (history/history-process.ts); undefined when
   * history.path is null. Day jobs ask it for a flush and go on; `sync` waits for one before it reports.
   */
  history: HistoryWork | undefined;
  /** Closes everything this engine opened, in reverse order. */
  close(): Promise<void>;
}

/**
 * The sql rules' reads in the archive's dialect (history/rule-queries.ts), DuckDB loaded at the first
 * rule checked or run: a worker without sql rules never loads it for them.
 */
export function sqlRuleQueries(root: string | null, store: Pick<ArchiveStore, 'queries'>): RuleQueries {
  let loaded: Promise<RuleQueries> | undefined;
  const load = () =>
    (loaded ??= import('./history/rule-queries.js').then((m) =>
      m.archiveRuleQueries({ root, store: store.queries }),
    ));
  return {
    check: async (sql) => (await load()).check(sql),
    run: async (sql, opts) => (await load()).run(sql, opts),
  };
}

/** `store`, telling the history how many rows each page stored. */
function flushingStore(store: ArchiveStore, history: HistoryWork): ArchiveStore {
  return Object.assign(Object.create(store) as ArchiveStore, {
    storePage: async (...args: Parameters<ArchiveStore['storePage']>) => {
      const result = await store.storePage(...args);
      if (result.kind === 'stored') history.noteStored(result.inserted + result.quarantineInserted);
      return result;
    },
  });
}

/** The part of worker.shutdownTimeout kept for closing after the waits (at most a quarter of it). */
const CLOSE_RESERVE_MS = 2_000;

export interface EngineOptions {
  /** @defaultValue Date.now */
  now?: () => number;
  /**
   * Count metrics (edgelog run, which serves them). Off, prom-client is not even loaded: other commands
   * would only pay its start-up time. @defaultValue false
   */
  metrics?: boolean;
  /**
   * Jobs this process runs at once (`sync --concurrency`): the PostgreSQL pool holds a connection for
   * each, so that no job waits for another's. @defaultValue config.worker.concurrency
   */
  concurrency?: number;
  /** Called at every retried API request, besides the metrics (sync counts them for its summary). */
  onRetry?: () => void;
}

/** `base`, also calling `onRetry` at each retry. */
function withRetryHook(base: IngestMetrics, onRetry: (() => void) | undefined): IngestMetrics {
  if (!onRetry) return base;
  return {
    request: (operation, status, seconds) => base.request(operation, status, seconds),
    retry: (operation, reason) => {
      base.retry(operation, reason);
      onRetry();
    },
    page: (source, zone, counts) => base.page(source, zone, counts),
    dayJob: (source, outcome) => base.dayJob(source, outcome),
    delivery: (hook, outcome) => base.delivery(hook, outcome),
  };
}

export async function startEngine(config: Config, logger: Logger, opts: EngineOptions = {}): Promise<Engine> {
  const now = opts.now ?? Date.now;
  registerConfigSecrets(config);
  // Before anything opens: a hook's template that does not parse or render stops the start, naming it,
  // and so does a history.path a PostgreSQL archive cannot share (config/history-path.ts).
  const templates = await compileTemplates(config.alerts.hooks);
  const root = historyPath(config);
  const metrics = opts.metrics ? (await import('./monitoring/index.js')).createMetrics(config) : undefined;
  const recorder: IngestMetrics = withRetryHook(metrics?.recorder ?? NO_METRICS, opts.onRetry);
  // First, so that the threads load their modules while the rest starts up.
  const threads = config.worker.pageThreads ?? defaultPageThreads(root !== null);
  let pageThreads =
    threads > 0 ? new PageThreads({ threads, api: config.api, logger, metrics: recorder }) : undefined;
  const warm = pageThreads?.warm();
  // SQLite: the writer keeps a modest page cache (its inserts land at the end of the keys) and leaves WAL
  // checkpoints to a background thread. PostgreSQL: a connection per job, and a few more.
  let archive: ArchiveStore;
  try {
    archive = await openStore(config.database, {
      logger,
      cacheMiB: 8,
      concurrency: opts.concurrency ?? config.worker.concurrency,
      now,
    });
  } catch (err) {
    await pageThreads?.close();
    throw err;
  }
  const alertLogger = logger.child({ component: 'alerts' });
  const sqlRules = new SqlRuleEvaluator({
    config,
    series: archive.alertSeries,
    queries: sqlRuleQueries(root, archive),
    logger: alertLogger,
    now,
  });
  const evaluator = new AlertEvaluator({
    config,
    repo: archive.alerts,
    silences: archive.silences,
    logger: alertLogger,
    now,
    terms: archive.terms,
    sql: sqlRules,
  });
  try {
    // A sql rule that does not parse or would write is refused now, naming the rule.
    await evaluator.check();
  } catch (err) {
    await pageThreads?.close();
    await archive.close();
    throw err;
  }
  const api = createApiClient(config.api, logger, recorder);
  let redis: ResolvedRedis;
  try {
    redis = await resolveRedis(config, logger);
  } catch (err) {
    await api.close();
    await pageThreads?.close();
    await archive.close();
    throw err;
  }
  if (warm && !(await warm)) {
    logger.warn('the page threads did not start; fetching and decoding on the main thread');
    await pageThreads?.close();
    pageThreads = undefined;
  }
  const history =
    root === null
      ? undefined
      : new HistoryProcess({
          store: archive,
          database: config.database,
          root,
          hotDays: config.history.hotDays,
          originLookbackDays: config.schedule.originLookbackDays,
          leaseMs: config.worker.lease,
          owner: ownerId('history'),
          logLevel: logger.level,
          now,
          logger: logger.child({ component: 'history' }),
          closeTimeoutMs: config.worker.shutdownTimeout,
        });
  const ingestor = new DayIngestor({
    client: api.client,
    ...(pageThreads
      ? {
          pages: pageThreads.shieldPages.bind(pageThreads),
          originDays: pageThreads.streamOriginDay.bind(pageThreads),
        }
      : {}),
    store: history ? flushingStore(archive, history) : archive,
    beforePass: history
      ? async (key: DayKey) => void (await history.thaw(key))
      : (key: DayKey) => refusePrunedDay(archive.history, key),
    logger: logger.child({ component: 'ingest' }),
    now,
    pageCap: config.api.pageCap,
    finalizeDelayMs: config.schedule.finalizeDelay,
    leaseMs: config.worker.lease,
    metrics: recorder,
  });
  const alertsRepo = archive.alerts as AlertsStore<Notice>;
  const redisOutage = new RedisOutage({ logger: logger.child({ component: 'redis' }) });
  const onRedisError = (client: string, err: Error) => redisOutage.report(client, err);
  const notifier = new Notifier({
    onRedisError,
    redis: redis.target,
    prefix: config.redis.prefix,
    config,
    repo: alertsRepo,
    logger,
    now,
    metrics: recorder,
    templates,
  });
  const check = async (scope: EvaluationScope = {}) => {
    const results = config.alerts.rules.length > 0 ? await evaluator.evaluate(scope) : [];
    await notifier.flushOutbox();
    return results;
  };
  const hooks: Pick<HandlerDeps, 'afterDay' | 'afterGuardian' | 'evaluateAlerts'> = {
    afterDay: async (r) => {
      // The day's rows into the history's parts soon, not awaited: readers read the rows above the
      // watermark from the store meanwhile, and many small days share one flush.
      history?.flushSoon();
      await check({ source: r.source, zone: r.zone });
    },
    afterGuardian: async (zone) => void (await check({ source: 'guardian', zone })),
    evaluateAlerts: () => check(),
  };
  const handlers = {
    config,
    client: api.client,
    ingestor,
    store: archive,
    logger,
    now,
    ...hooks,
    ...(history ? { history } : {}),
  };
  const runtime = new IngestRuntime({
    redis: redis.target,
    prefix: config.redis.prefix,
    handlers,
    onRedisError,
    metrics: recorder,
  });
  const privates = new Set<IngestRuntime>();
  let closed = false;
  let server: Promise<MetricsServer | null> | undefined;
  return {
    config,
    now,
    logger,
    store: archive,
    client: api.client,
    redis,
    redisOutage,
    runtime,
    privateRuntime(name) {
      // `edgelog sync` fetches what it was asked for and no more: compaction is the worker's (and
      // `edgelog compact`'s).
      const { history: _history, ...fetchOnly } = handlers;
      const own: IngestRuntime = new IngestRuntime({
        redis: redis.target,
        prefix: config.redis.prefix,
        handlers: fetchOnly,
        onRedisError,
        queueName: name,
        onDiscard: () => privates.delete(own),
        metrics: recorder,
      });
      privates.add(own);
      return own;
    },
    alerts: { repo: alertsRepo, evaluator, notifier, check },
    metrics,
    serveMetrics() {
      const listen = config.metrics.listen;
      server ??=
        metrics && listen
          ? import('./monitoring/index.js').then((m) =>
              m.serveMetrics(metrics, {
                listen,
                config,
                store: archive,
                redis,
                ingestQueue: runtime.queue,
                notifyQueue: notifier.queue,
                logger,
                now,
                ...(history ? { history } : {}),
              }),
            )
          : Promise.resolve(null);
      return server;
    },
    history,
    close: async () => {
      if (closed) return;
      closed = true;
      logger.debug('closing the engine');
      // First: no scrape may read what is closed below (a server that failed to start has nothing to close).
      await (await server?.catch(() => null))?.close();
      // One bound for every wait: the jobs and the deliveries in hand stop side by side within
      // worker.shutdownTimeout, less a reserve for what follows (forced stops, queues, archive).
      const timeout = config.worker.shutdownTimeout;
      const waitMs = timeout - Math.min(timeout / 4, CLOSE_RESERVE_MS);
      const stopped = await Promise.allSettled([
        ...[...privates].map((own) => own.discard(waitMs)),
        runtime.close(waitMs),
        notifier.stopWorker(waitMs),
      ]);
      await notifier.close(); // after the runtime: jobs still stopping may hand it notices
      await history?.close();
      await api.close();
      await pageThreads?.close();
      await archive.close();
      await redis.embedded?.stop();
      logger.debug('engine closed');
      for (const s of stopped) if (s.status === 'rejected') throw s.reason;
    },
  };
}
