import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { RequestMetrics } from '../telemetry/events.js';
import { ApiClient } from './client.js';
import { createDispatcher } from './http.js';

export { ApiClient, type ApiClientOptions, type CallOptions } from './client.js';
export { createDispatcher, HttpJson, WINDOW_EXPIRED_KEY } from './http.js';
export * from './paths.js';
export * from './enums.js';
export type { RawLogEntry, ShieldEventLogPage, OriginErrorLogResponse } from './schemas/log-pages.js';
export type { VideoPlayData, Video } from './schemas/video.js';
export type { EdgeScript } from './schemas/edge-script.js';
export type { ApiGuardianMetrics, DdosEnums, RateLimit } from './schemas/shield.js';

/** Builds the client and its connection pool from the `api` section of the config. */
export function createApiClient(
  api: Config['api'],
  logger: Logger,
  metrics?: RequestMetrics,
): { client: ApiClient; close: () => Promise<void> } {
  const dispatcher = createDispatcher({
    connectTimeoutMs: api.connectTimeout,
    maxResponseBytes: api.maxResponseBytes,
    connections: api.connections,
  });
  const client = new ApiClient({
    baseUrl: api.baseUrl,
    originLogUrl: api.originLogUrl,
    videoUrl: api.videoUrl,
    accessKey: api.accessKey,
    dispatcher,
    maxResponseBytes: api.maxResponseBytes,
    retry: {
      attempts: api.retryAttempts,
      baseDelayMs: api.retryBaseDelay,
      maxDelayMs: api.retryMaxDelay,
      deadlineMs: api.requestDeadline,
    },
    headersTimeoutMs: api.headersTimeout,
    bodyTimeoutMs: api.bodyTimeout,
    responseTimeoutMs: api.responseTimeout,
    logger: logger.child({ component: 'api' }),
    metrics,
  });
  return { client, close: () => dispatcher.close() };
}
