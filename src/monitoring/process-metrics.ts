// prom-client's process and Node.js metrics, less the three gauges it names with a `_total` suffix
// (nodejs_active_handles_total, …): Prometheus keeps that suffix for counters, and `promtool check
// metrics` fails on them. The same counts stay served, by type, as nodejs_active_handles and its kin.
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** prom-client default metrics that are gauges named like counters. */
export const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** Registers the process metrics (CPU, memory, event loop, GC…) on `registry`. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULT_GAUGES) registry.removeSingleMetric(name);
}
