// How many inputs each property tries: its default in `npm test`, or PROPERTY_RUNS (the soak's long form).
// PROPERTY_SEED replays a run (fast-check prints the seed of a failure).

export function propertyRuns(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): number {
  const runs = env.PROPERTY_RUNS;
  if (runs === undefined || runs === '') return defaultRuns;
  if (!/^\d+$/.test(runs) || Number(runs) < 1)
    throw new RangeError(`PROPERTY_RUNS must be a positive whole number, got "${runs}"`);
  return Number(runs);
}

/** fast-check's parameters for one property: its runs, and the seed when PROPERTY_SEED is set. */
export function propertyParams(
  defaultRuns: number,
  env: NodeJS.ProcessEnv = process.env,
): { numRuns: number; seed?: number } {
  const seed = env.PROPERTY_SEED;
  return { numRuns: propertyRuns(defaultRuns, env), ...(seed ? { seed: Number(seed) } : {}) };
}
