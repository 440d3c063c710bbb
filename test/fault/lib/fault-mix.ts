// Pure: a seeded random combination of the simulator's fault knobs, and what may come of it. Faults that
// fire a bounded number of times (`times`) on every URL must be retried to success; paging faults may
// leave a day `incomplete`; a wrong key, a day outside the Shield window and a zone the API does not know
// end in a permanent state. Nothing may hang, and nothing else may happen.
import { FAULT_KINDS, type FaultKind, type FaultSpec } from '../../../src/simulator/index.js';
import type { Rng } from './seeded.js';

/** Attempts per request in the faults scenario: more than any mix below can use up. */
export const RETRY_ATTEMPTS = 20;

/** Kinds that answer (or break the body) and are retried. */
const RETRIED: readonly FaultKind[] = [
  '429',
  '500',
  '502',
  '503',
  'reset',
  'truncate',
  'html',
  'gzip',
  'slow',
  'slow-body',
];
/** Kinds that make the API's paging break off: the day may end `incomplete`. */
export const PAGING_BREAKERS: readonly FaultKind[] = ['loop', 'empty-more', 'more'];
/** Kinds that leave a 401's body unreadable: the out-of-window answer is then not recognised. */
const UNREADABLE_401: readonly FaultKind[] = ['gzip', 'truncate'];
/** Kinds that cost seconds per firing: only ever bounded by `times`. */
const SLOW: readonly FaultKind[] = ['slow', 'slow-body'];

export interface FaultMix {
  faults: FaultSpec[];
  oddEntryRate: number;
  malformedRate: number;
  dotTokens: boolean;
  /** The CLI sends a key the API refuses (401, never retried). */
  wrongKey: boolean;
  /** A Shield day older than the API's window is asked for too (401 out-of-window body: `expired`). */
  expiredDay: boolean;
  /** A Shield zone the API does not know is configured too (a 2xx answer with an inline error). */
  unknownZone: boolean;
}

function drawFault(rng: Rng, kind: FaultKind = rng.pick(FAULT_KINDS)): FaultSpec {
  const bounded = SLOW.includes(kind) || rng.chance(0.6);
  const fault: FaultSpec = bounded ? { kind, times: rng.int(1, 2) } : { kind, rate: rng.int(2, 12) / 100 };
  if (kind === '429') fault.retryAfter = rng.pick(['0', '1']);
  if (kind === 'slow') fault.delayMs = rng.int(1_200, 1_800); // beyond the 1 s headers timeout
  if (kind === 'slow-body') {
    fault.chunks = rng.int(2, 4);
    fault.delayMs = rng.pick([200, 1_300]); // within, or beyond, the 1 s body timeout
  }
  // A loop may start on page 1 (hasMoreData true with an empty token there is a paging break, not the end).
  if (kind === 'loop') fault.afterPage = rng.int(1, 3);
  if (kind === 'empty-more') fault.afterPage = rng.int(1, 3);
  return fault;
}

/** A mix of one to three faults, the first of kind `first` (so that a series of mixes can cover every kind). */
export function drawFaultMix(rng: Rng, first?: FaultKind): FaultMix {
  const faults = Array.from({ length: rng.int(1, 3) }, (_, i) => drawFault(rng, i === 0 ? first : undefined));
  return {
    faults,
    oddEntryRate: rng.chance(0.5) ? rng.int(1, 5) / 100 : 0,
    malformedRate: rng.chance(0.5) ? rng.int(1, 5) / 100 : 0,
    dotTokens: rng.chance(0.3),
    wrongKey: rng.chance(0.15),
    expiredDay: rng.chance(0.3),
    unknownZone: rng.chance(0.3),
  };
}

/** The mix in the command line's syntax, to replay one by hand with `edgelog simulate`. */
export function describeMix(mix: FaultMix): string {
  const fault = (f: FaultSpec) => {
    const { kind, ...keys } = f;
    const pairs = Object.entries(keys).map(([k, v]) => `${k}=${String(v)}`);
    return `--fault ${kind}${pairs.length > 0 ? `:${pairs.join(',')}` : ''}`;
  };
  return [
    ...mix.faults.map(fault),
    mix.oddEntryRate > 0 ? `--odd-entry-rate ${mix.oddEntryRate}` : '',
    mix.malformedRate > 0 ? `--malformed-rate ${mix.malformedRate}` : '',
    mix.dotTokens ? '--dot-tokens' : '',
    mix.wrongKey ? '(wrong key)' : '',
    mix.expiredDay ? '(+ an expired Shield day)' : '',
    mix.unknownZone ? '(+ an unknown Shield zone)' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export type Verdict = 'complete' | 'complete-or-incomplete' | 'failed' | 'expired' | 'expired-or-failed';

/**
 * What a day may end as under `mix`. Rate-drawn faults are retried like the others: at most three of
 * them at 12% each, after the bounded ones, leave 14 of 20 attempts that fail together with odds near
 * one in ten million per request.
 */
export function expectedVerdict(
  mix: FaultMix,
  day: { source: 'origin' | 'shield'; expired: boolean; unknownZone: boolean },
): Verdict {
  if (mix.wrongKey) return 'failed';
  if (day.unknownZone) return 'failed';
  // A gzip-compressed 401 cannot be read (the client does not inflate), nor can a truncated one (half the
  // JSON, with a Content-Length that matches, so nothing says it was cut): neither is known to be the
  // window's answer, and a 401 is not retried, so the day fails as a refusal, clearly named.
  if (day.expired)
    return mix.faults.some((f) => UNREADABLE_401.includes(f.kind)) ? 'expired-or-failed' : 'expired';
  const operation = day.source === 'origin' ? 'originErrorLogs' : 'shieldEventLogs';
  const breaks = mix.faults.some(
    (f) =>
      PAGING_BREAKERS.includes(f.kind) &&
      (f.kind === 'more' ? operation === 'originErrorLogs' : operation === 'shieldEventLogs'),
  );
  return breaks ? 'complete-or-incomplete' : 'complete';
}

/** Failures any one URL can meet in a row: what `times` adds up to over the retried kinds. */
export function boundedFailures(mix: FaultMix): number {
  return mix.faults.filter((f) => RETRIED.includes(f.kind)).reduce((n, f) => n + (f.times ?? 0), 0);
}
