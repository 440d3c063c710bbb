// Which faults a request gets. Deterministic: `times` counts requests per distinct URL (so under any
// concurrency "each URL fails its first N times"), `rate` draws from a seeded PRNG per fault over the
// sequence of requests it sees. Faults are checked in the order given; an answering fault (a status or
// a reset) ends the check, the others (slow, truncate, loop, empty-more) add up.
import type { OperationName } from '../api/paths.js';
import { checkFault, type FaultSpec } from './options.js';
import { hashOf, Rng } from './prng.js';

export interface FaultDecision {
  /** A fault answering instead of the handler: 429, 500, 502, 503 or reset. */
  answer: FaultSpec | undefined;
  /** Summed delay of the `slow` faults that fired. */
  delayMs: number;
  /** A `truncate` fault fired. */
  truncate: FaultSpec | undefined;
  /** `loop` and `empty-more` faults that fired; the Shield handler applies them to matching pages. */
  paging: FaultSpec[];
}

const PAGING_KINDS = new Set(['loop', 'empty-more']);
const DEFAULT_SLOW_MS = 2000;

interface ArmedFault {
  spec: FaultSpec;
  seen: Map<string, number>;
  rng: Rng;
}

export class FaultPlan {
  private armed: ArmedFault[] = [];

  constructor(
    faults: readonly FaultSpec[],
    private readonly seed: number,
  ) {
    this.set(faults);
  }

  /** Replaces the faults; counters and PRNG streams start afresh. */
  set(faults: readonly FaultSpec[]): void {
    faults.forEach((f, i) => checkFault(f, `faults[${i}]`));
    this.armed = faults.map((spec, i) => ({
      spec: { ...spec },
      seen: new Map(),
      rng: new Rng(hashOf(this.seed, 'fault', i)),
    }));
  }

  /** Decides the faults of one request; `url` is its path and query as sent. */
  decide(operation: OperationName, url: string): FaultDecision {
    const decision: FaultDecision = { answer: undefined, delayMs: 0, truncate: undefined, paging: [] };
    for (const fault of this.armed) {
      const { spec } = fault;
      if (spec.operation !== undefined && spec.operation !== operation) continue;
      if (PAGING_KINDS.has(spec.kind) && operation !== 'shieldEventLogs') continue;
      if (!this.fires(fault, url)) continue;
      if (spec.kind === 'slow') decision.delayMs += spec.delayMs ?? DEFAULT_SLOW_MS;
      else if (spec.kind === 'truncate') decision.truncate = spec;
      else if (PAGING_KINDS.has(spec.kind)) decision.paging.push(spec);
      else {
        decision.answer = spec;
        break;
      }
    }
    return decision;
  }

  private fires(fault: ArmedFault, url: string): boolean {
    const { times, rate } = fault.spec;
    if (times !== undefined) {
      const seen = fault.seen.get(url) ?? 0;
      fault.seen.set(url, seen + 1);
      return seen < times;
    }
    if (rate !== undefined) return fault.rng.float() < rate;
    return true;
  }
}
