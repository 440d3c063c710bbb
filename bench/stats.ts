// Small figures the benches share.

/** The middle value (the upper one of an even count), of numbers in any order. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
