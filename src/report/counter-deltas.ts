// Pure: the change of a counter between consecutive snapshots, where a drop is a reset.

export interface CounterDelta {
  /**
   * How much the counter grew since the previous snapshot; after a reset, the new value (it grew that
   * much since restarting from zero). Null for the first snapshot or when either value is missing.
   */
  value: number | null;
  /** The counter went down: it was reset (the change is not a negative spike). */
  reset: boolean;
}

/** One delta per value, each against the value just before it. */
export function counterDeltas(values: ReadonlyArray<number | null>): CounterDelta[] {
  return values.map((current, i) => {
    const previous = i === 0 ? null : values[i - 1]!;
    if (current === null || previous === null) return { value: null, reset: false };
    if (current < previous) return { value: current, reset: true };
    return { value: current - previous, reset: false };
  });
}
