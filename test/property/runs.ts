// How many inputs each property tries: its default in `npm test`, or PROPERTY_RUNS (the soak's long form).
// PROPERTY_SEED replays a run (fast-check prints the seed of a failure).

export function propertyRuns(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): number {
  const runs = env.PROPERTY_RUNS;
  if (runs === undefined || runs === '') return defaultRuns;
  if (!/^\d+$/.test(runs) || Number(runs) < 1)
    throw new RangeError(`PROPERTY_RUNS must be a positive whole number, got "${runs}"`);
  return Number(runs);
}

/**
 * fast-check's parameters for one property: its runs, and the seed when PROPERTY_SEED is set. A property
 * whose input costs many times another's takes `1 / share` of PROPERTY_RUNS (never fewer than its default).
 */
export function propertyParams(
  defaultRuns: number,
  env: NodeJS.ProcessEnv = process.env,
  share = 1,
): { numRuns: number; seed?: number } {
  const seed = env.PROPERTY_SEED;
  const runs = propertyRuns(defaultRuns, env);
  const numRuns = runs === defaultRuns ? runs : Math.max(defaultRuns, Math.ceil(runs / share));
  return { numRuns, ...(seed ? { seed: Number(seed) } : {}) };
}
