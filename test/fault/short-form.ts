// The short form of the fault suite, as `npm test` runs it: the sizes that keep each scenario within
// seconds on a two-core machine. `npm run soak` runs the long form (soak.ts) with the counts.
import { inject } from 'vitest';

/** One seed for the whole test run (test/setup/seed.ts; FAULT_SEED replays one); each scenario derives its own. */
export const SEED = inject('faultSeed');

/** Hooks that run a whole scenario get this long (it holds several CLI runs). */
export const SCENARIO_TIMEOUT_MS = 240_000;

export const SHORT = {
  kills: { kills: 4, entriesPerDay: 4_000, pageSize: 200 },
  signals: { rounds: 1, entriesPerDay: 10_000, pageSize: 200 },
  redis: { entriesPerDay: 20_000, pageSize: 200, recoverMs: 25_000 },
  disk: { entriesPerDay: 20_000 },
  longReader: { entriesPerDay: 30_000 },
  twoWorkers: { entriesPerDay: 5_000 },
  faults: { mixes: 4 },
} as const;
