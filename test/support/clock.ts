// The alert tests' time: hours of 2026-11-22 (UTC) and a clock the test sets, shared by engine and simulator.
export const H = 3_600_000;
export const T0 = Date.parse('2026-11-22T00:00:00Z');
/** `hours` after midnight of 2026-11-22 UTC (fractions allowed: 10.5 is 10:30). */
export const at = (hours: number) => T0 + hours * H;

/** A clock that stands still until the test sets it. */
export function clock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => void (t = v) };
}
