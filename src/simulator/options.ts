// The simulator's public option and result types, their defaults, and the checks that make a bad option
// fail at construction with a message naming it.
import type { OperationName } from '../api/paths.js';
import type { Day } from '../time/utc-day.js';

export type SimSource = 'origin' | 'shield';

/** Extra entries for one zone over a time range: a burst of errors (origin) or attacks (shield). */
export interface Spike {
  source: SimSource;
  zone: number;
  /** Start of the burst, ms since the epoch (included). */
  from: number;
  /** End of the burst, ms since the epoch (excluded). */
  to: number;
  /** Entries over the whole range [from, to), spread evenly; a day serves the part that falls inside it. */
  count: number;
  /** Origin: StatusCode of the spike's entries. @defaultValue 503 */
  statusCode?: number;
  /** Origin: ErrorCode of the spike's entries. @defaultValue 'http_timeout' */
  errorCode?: string;
  /** Shield: ruleId of the spike's entries. @defaultValue a rule picked per entry */
  ruleId?: string;
  /** Shield: severity of the spike's entries. @defaultValue the rule's severity */
  severity?: string;
}

export type FaultKind =
  | '429'
  | '500'
  | '502'
  | '503'
  | 'reset'
  | 'truncate'
  | 'slow'
  | 'loop'
  | 'empty-more'
  | 'html'
  | 'gzip'
  | 'slow-body'
  | 'more'
  | 'null-fields';

export const FAULT_KINDS: readonly FaultKind[] = [
  '429',
  '500',
  '502',
  '503',
  'reset',
  'truncate',
  'slow',
  'loop',
  'empty-more',
  'html',
  'gzip',
  'slow-body',
  'more',
  'null-fields',
];

/** Faults that only make sense for some operations: the handlers of those apply them. */
export const FAULT_OPERATIONS: Partial<Record<FaultKind, readonly OperationName[]>> = {
  loop: ['shieldEventLogs'],
  'empty-more': ['shieldEventLogs'],
  more: ['originErrorLogs'],
  'null-fields': ['shieldEventLogs', 'originErrorLogs'],
};

export interface FaultSpec {
  kind: FaultKind;
  /** Only requests of this operation get the fault. @defaultValue every operation */
  operation?: OperationName;
  /** The first `times` requests of each distinct request URL get the fault, later ones do not. */
  times?: number;
  /** Or: this fraction of the requests, drawn from a seeded PRNG over the request sequence. */
  rate?: number;
  /** 429: the Retry-After header, delta-seconds or an HTTP date. @defaultValue "1" */
  retryAfter?: string;
  /**
   * slow: delay before the response headers. slow-body: delay between two pieces of the body.
   * @defaultValue 2000 for slow, 200 for slow-body
   */
  delayMs?: number;
  /** slow-body: the body is written in this many pieces. @defaultValue 10 */
  chunks?: number;
  /**
   * loop: from this Shield page on (1-based) the returned continuationToken is the requested one.
   * empty-more: this Shield page has `logs: []` but `hasMoreData: true`.
   * @defaultValue 2 for loop, 1 for empty-more
   */
  afterPage?: number;
}

/** Entries per zone per UTC day; a function lets tests shape days. It must be pure (tokens rely on it). */
export type EntriesPerDay = number | ((source: SimSource, zone: number, day: Day) => number);

export interface SimulatorOptions {
  /** @defaultValue 1 */
  seed?: number;
  /** The AccessKey header every /api and /origin request must carry. @defaultValue 'sim-access-key' */
  accessKey?: string;
  /** Known pull zones (origin logs). @defaultValue [101, 102, 103] */
  pullZones?: number[];
  /** Known shield zones. @defaultValue [201, 202, 203] */
  shieldZones?: number[];
  /** @defaultValue 500 */
  entriesPerDay?: EntriesPerDay;
  /** Entries per Shield event log page. @defaultValue 1000 */
  pageSize?: number;
  /** Fraction of entries whose `log` JSON is cut short, chosen per entry by hash. @defaultValue 0 */
  malformedRate?: number;
  /** @defaultValue [] */
  spikes?: Spike[];
  /** The simulator's clock: what "today" is and how much of it has been logged. @defaultValue Date.now */
  now?: () => number;
  /** Added before every answer. @defaultValue 0 */
  latencyMs?: number;
  /** @defaultValue [] */
  faults?: FaultSpec[];
  /** Video libraries with token authentication. @defaultValue [] */
  tokenAuthLibraries?: number[];
  /** Days before today still served by Shield event logs. @defaultValue 2 (today and the 2 before) */
  shieldWindowDays?: number;
  /**
   * Fraction of entries served odd (see ODD_KINDS), chosen per entry by hash; the kind too. Independent
   * of malformedRate. @defaultValue 0
   */
  oddEntryRate?: number;
  /** Error answers echo the AccessKey header the request carried, as a careless API does. @defaultValue false */
  echoKey?: boolean;
  /**
   * Page 1 of a Shield day returns the continuation token `.` and page 2 returns `..`; requests whose
   * token segment decodes to them get page 2 and page 3, recounted from what is logged at that request
   * (so on a day still filling in with a spike, the page may start elsewhere than when `.` was handed
   * out). @defaultValue false
   */
  dotTokens?: boolean;
  /**
   * Every string of every entry starts with terminal control sequences (HOSTILE_TEXT: CSI, OSC, C1, a
   * bidirectional override), and so does every message of an error answer, as a hostile API or the
   * attackers a WAF logged would send them. Keys the client acts on (errorKey, tokens) stay as they are.
   * @defaultValue false
   */
  hostileText?: boolean;
  /**
   * Entries carry their key only, `{"logId":…,"timestamp":…}` (about 70 bytes): many to a megabyte, for
   * pages whose decoded form outweighs their bytes many times. @defaultValue false
   */
  tinyEntries?: boolean;
}

export interface SimUrls {
  baseUrl: string;
  originLogUrl: string;
  videoUrl: string;
}

export interface SimStats {
  requests: number;
  entriesServed: number;
  /** Requests that got each fault kind. */
  faults: Record<string, number>;
}

export const DEFAULT_PULL_ZONES: readonly number[] = [101, 102, 103];
export const DEFAULT_SHIELD_ZONES: readonly number[] = [201, 202, 203];

/** The options with every default filled in. */
export interface ResolvedOptions {
  seed: number;
  accessKey: string;
  pullZones: ReadonlySet<number>;
  shieldZones: ReadonlySet<number>;
  entriesPerDay: (source: SimSource, zone: number, day: Day) => number;
  pageSize: number;
  malformedRate: number;
  spikes: readonly Spike[];
  now: () => number;
  latencyMs: number;
  tokenAuthLibraries: ReadonlySet<number>;
  shieldWindowDays: number;
  oddEntryRate: number;
  echoKey: boolean;
  dotTokens: boolean;
  hostileText: boolean;
  tinyEntries: boolean;
}

function checkInt(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function checkFraction(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`${name} must be a number from 0 to 1, got ${String(value)}`);
  }
  return value;
}

function checkZones(name: string, zones: readonly number[]): Set<number> {
  zones.forEach((z, i) => checkInt(`${name}[${i}]`, z, 1));
  return new Set(zones);
}

/** Checks one spike; returns it unchanged. */
export function checkSpike(spike: Spike, i: number): Spike {
  const at = `spikes[${i}]`;
  if (spike.source !== 'origin' && spike.source !== 'shield') {
    throw new TypeError(`${at}.source must be 'origin' or 'shield', got ${JSON.stringify(spike.source)}`);
  }
  checkInt(`${at}.zone`, spike.zone, 1);
  checkInt(`${at}.from`, spike.from, 0);
  checkInt(`${at}.to`, spike.to, spike.from + 1);
  checkInt(`${at}.count`, spike.count, 0);
  if (spike.statusCode !== undefined) checkInt(`${at}.statusCode`, spike.statusCode, 100);
  return spike;
}

/** Checks one fault; the message names the field. */
export function checkFault(fault: FaultSpec, at = 'fault'): FaultSpec {
  if (!FAULT_KINDS.includes(fault.kind)) {
    throw new TypeError(
      `${at}.kind must be one of ${FAULT_KINDS.join(', ')}, got ${JSON.stringify(fault.kind)}`,
    );
  }
  const only = FAULT_OPERATIONS[fault.kind];
  if (only && fault.operation !== undefined && !only.includes(fault.operation)) {
    throw new TypeError(`${at}: ${fault.kind} applies only to ${only.join(' and ')}, not ${fault.operation}`);
  }
  if (fault.times !== undefined) checkInt(`${at}.times`, fault.times, 0);
  if (fault.rate !== undefined) checkFraction(`${at}.rate`, fault.rate);
  if (fault.times !== undefined && fault.rate !== undefined) {
    throw new TypeError(`${at}: give times or rate, not both`);
  }
  if (fault.delayMs !== undefined) checkInt(`${at}.delayMs`, fault.delayMs, 0);
  if (fault.chunks !== undefined) checkInt(`${at}.chunks`, fault.chunks, 1);
  if (fault.afterPage !== undefined) checkInt(`${at}.afterPage`, fault.afterPage, 1);
  if (fault.retryAfter !== undefined && fault.retryAfter.trim() === '') {
    throw new TypeError(`${at}.retryAfter must not be empty`);
  }
  return fault;
}

export function resolveOptions(opts: SimulatorOptions): ResolvedOptions {
  const perDay = opts.entriesPerDay ?? 500;
  if (typeof perDay === 'number') checkInt('entriesPerDay', perDay, 0);
  const malformedRate = checkFraction('malformedRate', opts.malformedRate ?? 0);
  const accessKey = opts.accessKey ?? 'sim-access-key';
  if (accessKey.length === 0) throw new TypeError('accessKey must not be empty');
  (opts.faults ?? []).forEach((f, i) => checkFault(f, `faults[${i}]`));
  return {
    seed: checkInt('seed', opts.seed ?? 1, 0),
    accessKey,
    pullZones: checkZones('pullZones', opts.pullZones ?? DEFAULT_PULL_ZONES),
    shieldZones: checkZones('shieldZones', opts.shieldZones ?? DEFAULT_SHIELD_ZONES),
    entriesPerDay:
      typeof perDay === 'number'
        ? () => perDay
        : (source, zone, day) =>
            checkInt(`entriesPerDay(${source}, ${zone}, ${day})`, perDay(source, zone, day), 0),
    pageSize: checkInt('pageSize', opts.pageSize ?? 1000, 1),
    malformedRate,
    spikes: (opts.spikes ?? []).map((s, i) => checkSpike({ ...s }, i)),
    now: opts.now ?? Date.now,
    latencyMs: checkInt('latencyMs', opts.latencyMs ?? 0, 0),
    tokenAuthLibraries: checkZones('tokenAuthLibraries', opts.tokenAuthLibraries ?? []),
    shieldWindowDays: checkInt('shieldWindowDays', opts.shieldWindowDays ?? 2, 0),
    oddEntryRate: checkFraction('oddEntryRate', opts.oddEntryRate ?? 0),
    echoKey: opts.echoKey ?? false,
    dotTokens: opts.dotTokens ?? false,
    hostileText: opts.hostileText ?? false,
    tinyEntries: opts.tinyEntries ?? false,
  };
}
