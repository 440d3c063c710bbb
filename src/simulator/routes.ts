// Pure routing: a request path (as sent, percent-encoded) to one of the seven operations. One server
// holds the three hosts of API.md under path prefixes: /api (base_url), /origin and /video.
import type { OperationName } from '../api/paths.js';

export type Route =
  | { operation: 'videoPlayData'; libraryId: number; videoId: string }
  | { operation: 'originErrorLogs'; zone: number; date: string }
  | { operation: 'edgeScript'; id: number }
  | { operation: 'apiGuardianMetrics'; zone: number }
  | { operation: 'ddosEnums' }
  | { operation: 'shieldEventLogs'; zone: number; date: string; token: string }
  | { operation: 'rateLimit'; id: number };

export type RouteMatch =
  | {
      ok: true;
      route: Route;
      operation: OperationName;
      /** The path below its host prefix. */ instance: string;
    }
  | { ok: false; status: 400 | 404; instance: string; detail: string };

export const PREFIXES = { api: '/api', origin: '/origin', video: '/video' } as const;

function id(segment: string | undefined): number | undefined {
  if (segment === undefined || !/^\d{1,15}$/.test(segment)) return undefined;
  return Number(segment);
}

function decode(segments: string[]): string[] | undefined {
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function apiRoute(s: string[]): Route | undefined {
  const [a, b, c, d, e] = s;
  const n = s.length;
  if (n === 3 && a === 'compute' && b === 'script') {
    const script = id(c);
    return script === undefined ? undefined : { operation: 'edgeScript', id: script };
  }
  if (a !== 'shield') return undefined;
  if (n === 3 && b === 'ddos' && c === 'enums') return { operation: 'ddosEnums' };
  if (n === 3 && b === 'rate-limit') {
    const rule = id(c);
    return rule === undefined ? undefined : { operation: 'rateLimit', id: rule };
  }
  if (n === 5 && b === 'metrics' && c === 'shield-zone' && e === 'api-guardian') {
    const zone = id(d);
    return zone === undefined ? undefined : { operation: 'apiGuardianMetrics', zone };
  }
  // The first page comes with an empty token segment (a trailing slash) or without that segment.
  if ((n === 4 || n === 5) && b === 'event-logs') {
    const zone = id(c);
    return zone === undefined ? undefined : { operation: 'shieldEventLogs', zone, date: d!, token: e ?? '' };
  }
  return undefined;
}

/** Matches a request path (without its query). */
export function matchRoute(path: string): RouteMatch {
  const prefix = Object.values(PREFIXES).find((p) => path.startsWith(`${p}/`));
  const instance = prefix ? path.slice(prefix.length) : path;
  const notFound = { ok: false, status: 404, instance, detail: `no such resource: ${path}` } as const;
  if (!prefix) return notFound;
  const segments = decode(instance.slice(1).split('/'));
  if (!segments)
    return { ok: false, status: 400, instance, detail: 'malformed percent-encoding in the path' };
  let route: Route | undefined;
  if (prefix === PREFIXES.api) route = apiRoute(segments);
  else if (prefix === PREFIXES.origin) {
    const zone = id(segments[0]);
    if (zone !== undefined && segments.length === 2) {
      route = { operation: 'originErrorLogs', zone, date: segments[1]! };
    }
  } else {
    const [a, library, b, videoId, c] = segments;
    const libraryId = id(library);
    if (
      a === 'library' &&
      libraryId !== undefined &&
      b === 'videos' &&
      videoId &&
      c === 'play' &&
      segments.length === 5
    ) {
      route = { operation: 'videoPlayData', libraryId, videoId };
    }
  }
  return route ? { ok: true, route, operation: route.operation, instance } : notFound;
}
