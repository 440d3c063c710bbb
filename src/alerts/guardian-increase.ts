// Pure: whether an API Guardian counter rose by more than a rule's bound. The bound is per snapshot
// interval (`schedule.guardianEvery`), so the increase judged is over about one interval: the latest
// snapshot against the newest one taken at least half an interval before it. Snapshots closer than that
// (a start takes one from its catch-up and one from the scheduler, milliseconds apart) are never a pair,
// and a longer gap (the worker was stopped, snapshots failed) is not judged: it is not an increase per
// interval. Returns a typed verdict, so the notice and `alerts list` can say why.

export interface CounterSnapshot {
  /** ISO time of the snapshot. */
  taken_at: string;
  value: number;
}

export interface IncreaseParams {
  /** Time between snapshots (ms). */
  intervalMs: number;
  maxIncrease: number;
}

export type IncreaseVerdict =
  | { kind: 'unknown'; reason: string; value: number | null }
  | { kind: 'judged'; firing: boolean; increase: number; from: CounterSnapshot; to: CounterSnapshot };

/** The least time between the two snapshots judged: half an interval. */
export function minimumGapMs(intervalMs: number): number {
  return Math.floor(intervalMs / 2);
}

/** A pair at most this far apart is judged: two intervals. */
export function maximumGapMs(intervalMs: number): number {
  return 2 * intervalMs;
}

/**
 * Judges `latest` against `earlier`, the newest snapshot taken at least minimumGapMs before it
 * (undefined when there is none).
 */
export function judgeIncrease(
  latest: CounterSnapshot | undefined,
  earlier: CounterSnapshot | undefined,
  p: IncreaseParams,
  describe: (ms: number) => string,
): IncreaseVerdict {
  if (!latest) return { kind: 'unknown', reason: 'fewer than two snapshots', value: null };
  if (!earlier) {
    return {
      kind: 'unknown',
      reason: `no snapshot at least ${describe(minimumGapMs(p.intervalMs))} before the latest (${latest.taken_at})`,
      value: null,
    };
  }
  const gap = Date.parse(latest.taken_at) - Date.parse(earlier.taken_at);
  const increase = latest.value - earlier.value;
  if (!(gap <= maximumGapMs(p.intervalMs))) {
    return {
      kind: 'unknown',
      reason:
        `${describe(gap)} between ${earlier.taken_at} and ${latest.taken_at}, more than two snapshot ` +
        `intervals (${describe(p.intervalMs)}); not judged`,
      value: increase,
    };
  }
  if (increase < 0)
    return { kind: 'unknown', reason: 'counter went down (reset); not judged', value: increase };
  return { kind: 'judged', firing: increase > p.maxIncrease, increase, from: earlier, to: latest };
}
