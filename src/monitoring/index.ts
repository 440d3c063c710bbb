// Metrics for an engine, in two steps: create() before the components (they are fed the recorder), and
// serve() once they exist (the collectors read the archive, the queues and Redis at scrape time).
import type { JobType } from 'bullmq';
import { Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { wantedSchedulers } from '../queue/schedules.js';
import type { RedisTarget } from '../redis/connection.js';
import type { ArchiveStore } from '../store/store.js';
import type { HistoryMemory } from '../history/history-process.js';
import { alertsCollector } from './alerts-collector.js';
import { silencesCollector } from './silences-collector.js';
import { archiveCollector } from './archive-collector.js';
import { childProcessCollector } from './child-process-collector.js';
import { historyPath } from '../config/history-path.js';
import { scrape } from './collect.js';
import { defineMetrics, type MetricSet } from './definitions.js';
import { ledgerCollector } from './ledger-collector.js';

import { probe, type SchedulerQueue } from './probes.js';
import { collectProcessMetrics } from './process-metrics.js';
import { queueCollector, type CountableQueue } from './queue-collector.js';
import { judgeReadiness } from './readiness.js';
import { MetricsRecorder } from './recorder.js';
import { startMetricsServer, type MetricsServer } from './server.js';

export type { IngestMetrics } from '../telemetry/events.js';
export { NO_METRICS } from '../telemetry/events.js';
export type { MetricSet } from './definitions.js';
export type { MetricsServer } from './server.js';

export interface Metrics {
  set: MetricSet;
  /** What the ingest core feeds. */
  recorder: MetricsRecorder;
}

/** A registry of its own with every metric defined, and the recorder that feeds the counters. */
export function createMetrics(config: Pick<Config, 'pullZones' | 'shieldZones' | 'alerts'>): Metrics {
  const set = defineMetrics(new Registry());
  const recorder = new MetricsRecorder(set, {
    pullZones: config.pullZones.map((z) => z.id),
    shieldZones: config.shieldZones.map((z) => z.id),
    hooks: Object.keys(config.alerts.hooks),
  });
  return { set, recorder };
}

/** The slice of a BullMQ Queue the collectors and probes use. */
export interface BullQueue {
  readonly name: string;
  getBackend(): { connection: { client: Promise<{ status: string }> } };
  getJobCounts(...types: JobType[]): Promise<Record<string, number>>;
  getJobSchedulers(start?: number, end?: number): Promise<Array<{ key: string }>>;
}

function queueView(q: BullQueue): CountableQueue & SchedulerQueue {
  return {
    name: q.name,
    connected: async () => (await q.getBackend().connection.client).status === 'ready',
    getJobCounts: (...types) => q.getJobCounts(...(types as JobType[])),
    getJobSchedulers: (start, end) => q.getJobSchedulers(start, end),
  };
}

export interface ServeOptions {
  listen: { host: string; port: number };
  config: Config;
  store: ArchiveStore;
  redis: { target: RedisTarget; display: string };
  /** The ingest queue (depths, schedulers) and the delivery queue (depths). */
  ingestQueue: BullQueue;
  notifyQueue: BullQueue;
  logger: Logger;
  now: () => number;
  /** The worker's history process, whose memory is shown beside the worker's. @defaultValue none */
  history?: { memory(): Promise<HistoryMemory | null> };
}

/** Adds the scrape-time collectors and the process metrics, and serves /metrics, /healthz and /readyz. */
export function serveMetrics(metrics: Metrics, opts: ServeOptions): Promise<MetricsServer> {
  const { set } = metrics;
  const { config } = opts;
  collectProcessMetrics(set.registry);
  const { store } = opts;
  const pullZones = config.pullZones.map((z) => z.id);
  const shieldZones = config.shieldZones.map((z) => z.id);
  const collectors = [
    ledgerCollector(set, {
      ledger: store.ledger,
      newest: store.health.newestEntries({ origin: pullZones, shield: shieldZones }),
      now: opts.now,
      pullZones,
      shieldZones,
      schedule: config.schedule,
    }),
    queueCollector(set, [queueView(opts.ingestQueue), queueView(opts.notifyQueue)]),
    archiveCollector(set, store, historyPath(config)),
    alertsCollector(set, store, config.alerts.rules),
    silencesCollector(set, store, config.alerts.rules, opts.now),
    ...(opts.history ? [childProcessCollector(set, opts.history)] : []),
  ];
  const wanted = wantedSchedulers(config).map((w) => w.id);
  const log = opts.logger.child({ component: 'metrics' });
  return startMetricsServer({
    ...opts.listen,
    metrics: () => scrape(set, collectors, log),
    contentType: set.registry.contentType,
    readiness: async () =>
      judgeReadiness(
        await probe({
          redis: opts.redis,
          store,
          queue: queueView(opts.ingestQueue),
          wantedSchedulers: wanted,
        }),
      ),
    logger: opts.logger,
  });
}
