// Scrape-time collection: each collector reads state (the ledger, Redis, the file system) into its
// gauges just before the registry is rendered. One that fails is logged and counted, and its gauges
// are left out of that scrape; the others are still served.
import { coerceError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { MetricSet } from './definitions.js';

export interface Collector {
  /** The `collector` label of edgelog_scrape_errors_total. */
  name: string;
  collect(): void | Promise<void>;
}

/** Runs every collector, then renders the registry in the Prometheus text format. */
export async function scrape(
  m: MetricSet,
  collectors: readonly Collector[],
  logger: Logger,
): Promise<string> {
  await Promise.all(
    collectors.map(async (c) => {
      try {
        await c.collect();
      } catch (err) {
        m.scrapeErrors.inc({ collector: c.name });
        logger.warn({ collector: c.name, err: coerceError(err).message }, 'a metrics collector failed');
      }
    }),
  );
  return m.registry.metrics();
}

/** Resolves with `promise`, or rejects after `ms` (the timer does not keep the process alive). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
