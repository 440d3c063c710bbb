// 4.4 API Guardian metrics. Counters grow with the simulator's clock (a deterministic function of the
// zone and now), so two snapshots minutes apart differ and never decrease.
import { addDays, dayOf, dayStartMs, DAY_MS } from '../../time/utc-day.js';
import { hashOf, unit } from '../prng.js';
import { inlineFailure, INLINE_OK, json, UNKNOWN_SHIELD_ZONE, type Reply } from '../replies.js';
import type { HandlerContext } from './context.js';

const EPOCH = Date.UTC(2024, 0, 1);

/** Per-second rates of the six counters, in the order of METRICS. */
const METRICS = [
  ['blockedRequests', 'totalBlockedRequests', 0.4],
  ['loggedRequests', 'totalLoggedRequests', 1.1],
  ['rateLimited', 'totalRateLimited', 0.2],
  ['requestsInspected', 'totalRequestsInspected', 25],
  ['failedRequestValidation', 'totalFailedRequestValidation', 0.05],
  ['failedAuthenticationEnforcement', 'totalFailedAuthenticationEnforcement', 0.03],
] as const;

/** The counter's value at `at`: rate × elapsed seconds, scaled per zone — non-decreasing in `at`. */
function total(seed: number, zone: number, metric: number, at: number): number {
  const scale = 0.5 + unit(hashOf(seed, 'guardian', zone, metric));
  return Math.floor((Math.max(0, at - EPOCH) / 1000) * METRICS[metric]![2] * scale);
}

export function apiGuardianMetrics(ctx: HandlerContext, zone: number): Reply {
  if (!ctx.data.knows('shield', zone)) {
    const message = `Shield zone ${zone} was not found or you do not have access to it`;
    return json(202, `{"error":${inlineFailure(UNKNOWN_SHIELD_ZONE, message, ctx.echo)},"data":null}`);
  }
  const { seed } = ctx.opts;
  const now = ctx.now;
  const today = dayOf(now);
  const overview: Record<string, Record<string, number>> = {};
  for (let back = 27; back >= 0; back--) {
    const start = dayStartMs(addDays(today, -back));
    const end = Math.min(start + DAY_MS, now);
    overview[`${addDays(today, -back)}T00:00:00Z`] = Object.fromEntries(
      METRICS.map(([name], m) => [name, total(seed, zone, m, end) - total(seed, zone, m, start)]),
    );
  }
  const data = {
    ...Object.fromEntries(METRICS.map(([, name], m) => [name, total(seed, zone, m, now)])),
    overviewPastTwentyEightDays: overview,
  };
  return json(200, `{"error":${INLINE_OK},"data":${JSON.stringify(data)}}`);
}
