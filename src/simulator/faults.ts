// Which faults a request gets. Deterministic: `times` counts requests per distinct URL (so under any
// concurrency "each URL fails its first N times"), `rate` draws from a seeded PRNG per fault over the
// sequence of requests it sees. Faults are checked in the order given; an answering fault (a status, a
// reset or an HTML page) ends the check, the others (slow, truncate, gzip, slow-body and the faults the
// log handlers apply) add up. A fault that cannot apply to an operation is skipped without counting.
import type { OperationName } from '../api/paths.js';
import { checkFault, FAULT_OPERATIONS, type FaultSpec } from './options.js';
import { hashOf, Rng } from './prng.js';

export interface FaultDecision {
  /** A fault answering instead of the handler: 429, 500, 502, 503, reset or html. */
  answer: FaultSpec | undefined;
  /** Summed delay of the `slow` faults that fired. */
  delayMs: number;
  /** A `truncate` fault fired. */
  truncate: FaultSpec | undefined;
  /** A `gzip` fault fired. */
  gzip: FaultSpec | undefined;
  /** A `slow-body` fault fired. */
  slowBody: FaultSpec | undefined;
  /** `loop`, `empty-more`, `more` and `null-fields` faults that fired; the log handlers apply them. */
  paging: FaultSpec[];
}

export const NO_FAULTS: FaultDecision = {
  answer: undefined,
  delayMs: 0,
  truncate: undefined,
  gzip: undefined,
  slowBody: undefined,
  paging: [],
};

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
    const decision: FaultDecision = { ...NO_FAULTS, paging: [] };
    for (const fault of this.armed) {
      const { spec } = fault;
      if (spec.operation !== undefined && spec.operation !== operation) continue;
      const only = FAULT_OPERATIONS[spec.kind];
      if (only && !only.includes(operation)) continue;
      if (!this.fires(fault, url)) continue;
      if (spec.kind === 'slow') decision.delayMs += spec.delayMs ?? DEFAULT_SLOW_MS;
      else if (spec.kind === 'truncate') decision.truncate = spec;
      else if (spec.kind === 'gzip') decision.gzip = spec;
      else if (spec.kind === 'slow-body') decision.slowBody = spec;
      else if (only) decision.paging.push(spec);
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
