// Shared wiring for the simulator's integration tests: a Simulator on port 0 and the project's real
// ApiClient pointed at it (built as src/api/index.ts createApiClient does), closed after each test.
import { afterEach } from 'vitest';
import { ApiClient, createDispatcher } from '../../src/api/index.js';
import type { RetryPolicy } from '../../src/api/retry-timing.js';
import { silentLogger } from '../../src/logger.js';
import { Simulator, type SimulatorOptions, type SimUrls } from '../../src/simulator/index.js';
import { dayOf, type Day } from '../../src/time/utc-day.js';

/** A fixed simulator clock: noon UTC, so "today" and the Shield window are stable. */
export const NOON = Date.parse('2026-11-22T12:00:00.000Z');
export const TODAY: Day = dayOf(NOON);

const cleanups: Array<() => Promise<void>> = [];

/** Registers the cleanup hook in the calling test file. */
export function closeAfterEach(): void {
  afterEach(async () => {
    for (const close of cleanups.splice(0).reverse()) await close();
  });
}

export interface ClientOptions {
  accessKey?: string;
  retry?: Partial<RetryPolicy>;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  responseTimeoutMs?: number;
}

export function clientFor(urls: SimUrls, accessKey: string | undefined, opts: ClientOptions = {}): ApiClient {
  const dispatcher = createDispatcher({
    connectTimeoutMs: 2000,
    maxResponseBytes: 256 * 1024 * 1024,
    connections: 8,
  });
  cleanups.push(() => dispatcher.close());
  return new ApiClient({
    ...urls,
    accessKey: opts.accessKey ?? accessKey,
    dispatcher,
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, deadlineMs: 10_000, ...opts.retry },
    headersTimeoutMs: opts.headersTimeoutMs ?? 5000,
    bodyTimeoutMs: opts.bodyTimeoutMs ?? 5000,
    ...(opts.responseTimeoutMs === undefined ? {} : { responseTimeoutMs: opts.responseTimeoutMs }),
    logger: silentLogger(),
    random: () => 0.5,
  });
}

export interface Running {
  sim: Simulator;
  urls: SimUrls;
  client: ApiClient;
}

/** Starts a simulator (clock fixed at NOON unless given) and a client with the right key. */
export async function start(opts: SimulatorOptions = {}, client: ClientOptions = {}): Promise<Running> {
  const sim = new Simulator({ now: () => NOON, ...opts });
  const urls = await sim.listen();
  cleanups.push(() => sim.close());
  return { sim, urls, client: clientFor(urls, sim.accessKey, client) };
}
