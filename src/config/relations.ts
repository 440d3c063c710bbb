// Pure: checks between keys that each passed the schema on their own but contradict one another, so
// the configuration is refused at start instead of misbehaving later. Reads only the slice it checks.
import { DAY_MS } from '../time/utc-day.js';
import { formatDuration } from './duration.js';

type Zones = ReadonlyArray<number | { id: number }>;

type RuleSlice =
  | {
      type: 'spike';
      window: number;
      reference: 'previous' | 'same-hour';
      filter: { statusCodeMin?: number | undefined; statusCodeMax?: number | undefined };
    }
  | { type: 'flatline' | 'guardian' | 'new-term' | 'sql' };

interface HookSlice {
  url: string;
  bearerToken?: string | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}

/** What the checks read of a configuration that passed the schema (durations in milliseconds). */
export interface RelatedKeys {
  api: {
    connectTimeout: number;
    headersTimeout: number;
    bodyTimeout: number;
    responseTimeout: number;
    retryBaseDelay: number;
    retryMaxDelay: number;
    requestDeadline: number;
  };
  schedule: {
    refreshEvery: number;
    finalizeDelay: number;
    originLookbackDays: number;
    shieldLookbackDays: number;
  };
  alerts: {
    retryDelay: number;
    maxRetryDelay: number;
    rules: readonly RuleSlice[];
    hooks: Readonly<Record<string, HookSlice>>;
  };
  pullZones: Zones;
  shieldZones: Zones;
}

export interface RelationIssue {
  path: Array<string | number>;
  message: string;
}

const d = formatDuration;

/** Every contradiction between keys, each at the key to change; empty when there is none. */
export function relationIssues(c: RelatedKeys): RelationIssue[] {
  return [
    ...duplicateZones('pullZones', c.pullZones),
    ...duplicateZones('shieldZones', c.shieldZones),
    ...apiTimings(c.api),
    ...lookbacks(c.schedule),
    ...alertTimings(c.alerts),
    ...c.alerts.rules.flatMap(ruleIssues),
    ...Object.entries(c.alerts.hooks).flatMap(([name, hook]) => hookCredentials(name, hook)),
  ];
}

/** Two entries with one id would be fetched and counted as one zone: a typo, most likely. */
function duplicateZones(key: 'pullZones' | 'shieldZones', zones: Zones): RelationIssue[] {
  const first = new Map<number, number>();
  const issues: RelationIssue[] = [];
  zones.forEach((z, i) => {
    const id = typeof z === 'number' ? z : z.id;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, i);
    else
      issues.push({
        path: [key, i],
        message: `${key}[${earlier}] and ${key}[${i}] both have id ${id}: list each zone once`,
      });
  });
  return issues;
}

function apiTimings(api: RelatedKeys['api']): RelationIssue[] {
  const issues: RelationIssue[] = [];
  if (api.retryBaseDelay > api.retryMaxDelay) {
    issues.push({
      path: ['api', 'retryBaseDelay'],
      message:
        `must not be longer than api.retryMaxDelay (${d(api.retryMaxDelay)}), got ${d(api.retryBaseDelay)}: ` +
        `the backoff grows from the one up to the other, e.g. "500ms"`,
    });
  }
  // requestDeadline bounds one request with all its attempts and waits.
  const deadline = `api.requestDeadline (${d(api.requestDeadline)})`;
  for (const key of ['connectTimeout', 'headersTimeout', 'bodyTimeout'] as const) {
    if (api[key] >= api.requestDeadline) {
      issues.push({
        path: ['api', key],
        message: `must be shorter than ${deadline}, got ${d(api[key])}: the deadline would always end the request first, so no attempt could time out and be retried`,
      });
    }
  }
  // responseTimeout bounds a whole answer: the waits inside it must be able to fire before it does.
  for (const key of ['headersTimeout', 'bodyTimeout'] as const) {
    if (api[key] >= api.responseTimeout) {
      issues.push({
        path: ['api', key],
        message: `must be shorter than api.responseTimeout (${d(api.responseTimeout)}), got ${d(api[key])}: the response timeout would always end the answer first`,
      });
    }
  }
  if (api.retryBaseDelay >= api.requestDeadline) {
    issues.push({
      path: ['api', 'retryBaseDelay'],
      message: `must be shorter than ${deadline}, got ${d(api.retryBaseDelay)}: no retry could ever be waited for`,
    });
  }
  return issues;
}

/**
 * A day becomes complete only through a pass that starts at least finalizeDelay after the day ended,
 * and the planner looks at it only until it leaves the lookback (lookbackDays × 24 h after it ended).
 * Passes come every refreshEvery, so one is sure to land in that gap only if it is at least that long;
 * otherwise the day can stay partial forever, its last hours never fetched.
 */
function lookbacks(s: RelatedKeys['schedule']): RelationIssue[] {
  const issues: RelationIssue[] = [];
  for (const key of ['originLookbackDays', 'shieldLookbackDays'] as const) {
    const gap = s[key] * DAY_MS - s.finalizeDelay;
    if (gap >= s.refreshEvery) continue;
    const needed = Math.ceil((s.refreshEvery + s.finalizeDelay) / DAY_MS);
    issues.push({
      path: ['schedule', key],
      message:
        `${s[key]} leaves ${d(gap)} between schedule.finalizeDelay (${d(s.finalizeDelay)}) after a day ended ` +
        `and the day leaving the lookback, less than schedule.refreshEvery (${d(s.refreshEvery)}): no pass may ` +
        `start in it, and the day would stay partial; set it to ${needed} or more, or shorten refreshEvery`,
    });
  }
  return issues;
}

function alertTimings(a: RelatedKeys['alerts']): RelationIssue[] {
  if (a.retryDelay <= a.maxRetryDelay) return [];
  return [
    {
      path: ['alerts', 'retryDelay'],
      message:
        `must not be longer than alerts.maxRetryDelay (${d(a.maxRetryDelay)}), got ${d(a.retryDelay)}: ` +
        `the backoff grows from the one up to the other, e.g. "5s"`,
    },
  ];
}

/** One Authorization header: two ways of giving it would leave one of them unused, silently. */
function hookCredentials(name: string, hook: HookSlice): RelationIssue[] {
  let inUrl = false;
  try {
    const u = new URL(hook.url);
    inUrl = u.username !== '' || u.password !== '';
  } catch {
    // The schema checked the URL.
  }
  const ways = [
    inUrl && 'credentials in url',
    hook.bearerToken !== undefined && 'bearerToken',
    Object.keys(hook.headers ?? {}).some((h) => h.toLowerCase() === 'authorization') &&
      'headers.Authorization',
  ].filter((w): w is string => w !== false);
  if (ways.length <= 1) return [];
  return [
    {
      path: ['alerts', 'hooks', name],
      message: `give the hook one credential, not ${ways.join(' and ')}: each is sent as its Authorization header`,
    },
  ];
}

function ruleIssues(rule: RuleSlice, i: number): RelationIssue[] {
  if (rule.type !== 'spike') return [];
  const issues: RelationIssue[] = [];
  const { statusCodeMin: lo, statusCodeMax: hi } = rule.filter;
  if (lo !== undefined && hi !== undefined && lo > hi) {
    issues.push({
      path: ['alerts', 'rules', i, 'filter', 'statusCodeMin'],
      message: `must not be above filter.statusCodeMax (${hi}), got ${lo}: no status would match`,
    });
  }
  if (rule.reference === 'same-hour' && rule.window > DAY_MS) {
    issues.push({
      path: ['alerts', 'rules', i, 'window'],
      message: `must be at most 1d with reference "same-hour" (windows a day apart would overlap), got ${d(rule.window)}, e.g. "1h"`,
    });
  }
  return issues;
}
