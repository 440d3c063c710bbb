// The composition root of the ingestion engine: wires config, archive, API client, Redis and queue once.
import { createApiClient, type ApiClient } from './api/index.js';
import type { Config } from './config/index.js';
import { DayIngestor } from './ingest/day-ingestor.js';
import type { Logger } from './logger.js';
import type { HandlerDeps } from './queue/handlers.js';
import { IngestRuntime } from './queue/runtime.js';
import { resolveRedis, type ResolvedRedis } from './redis/resolve.js';
import { openArchive, type Archive } from './store/archive.js';

export interface Engine {
  config: Config;
  logger: Logger;
  archive: Archive;
  client: ApiClient;
  redis: ResolvedRedis;
  runtime: IngestRuntime;
  /** Closes everything this engine opened, in reverse order. */
  close(): Promise<void>;
}

export interface EngineOptions {
  /** @defaultValue Date.now */
  now?: () => number;
  /** Hooks run after jobs (alert evaluation). */
  afterDay?: HandlerDeps['afterDay'];
  afterGuardian?: HandlerDeps['afterGuardian'];
}

export async function startEngine(config: Config, logger: Logger, opts: EngineOptions = {}): Promise<Engine> {
  const now = opts.now ?? Date.now;
  const archive = openArchive(config.database.path, logger);
  const api = createApiClient(config.api, logger);
  let redis: ResolvedRedis;
  try {
    redis = await resolveRedis(config, logger);
  } catch (err) {
    await api.close();
    archive.close();
    throw err;
  }
  const ingestor = new DayIngestor({
    client: api.client,
    db: archive.db,
    ledger: archive.ledger,
    origin: archive.origin,
    shield: archive.shield,
    logger: logger.child({ component: 'ingest' }),
    now,
    pageCap: config.api.pageCap,
    finalizeDelayMs: config.schedule.finalizeDelay,
  });
  const runtime = new IngestRuntime({
    redis: redis.target,
    prefix: config.redis.prefix,
    handlers: {
      config,
      client: api.client,
      ingestor,
      ledger: archive.ledger,
      guardian: archive.guardian,
      origin: archive.origin,
      shield: archive.shield,
      logger,
      now,
      ...(opts.afterDay ? { afterDay: opts.afterDay } : {}),
      ...(opts.afterGuardian ? { afterGuardian: opts.afterGuardian } : {}),
    },
  });
  return {
    config,
    logger,
    archive,
    client: api.client,
    redis,
    runtime,
    close: async () => {
      await runtime.close();
      await api.close();
      archive.close();
      await redis.embedded?.stop();
    },
  };
}
