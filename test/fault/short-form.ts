// The short form of the fault suite, as `npm test` runs it: the sizes that keep each scenario within
// seconds on a two-core machine. `npm run soak` runs the long form (soak.ts) with the counts.
import { inject } from 'vitest';

/** One seed for the whole test run (test/setup/seed.ts; FAULT_SEED replays one); each scenario derives its own. */
export const SEED = inject('faultSeed');

/** Hooks that run a whole scenario get this long (it holds several CLI runs). */
export const SCENARIO_TIMEOUT_MS = 240_000;

export const SHORT = {
  kills: { kills: 4, entriesPerDay: 6_000, pageSize: 200 },
  signals: { rounds: 1, entriesPerDay: 10_000, pageSize: 200 },
  // With its data back, a job whose lock Redis lost is taken up again by BullMQ's stalled-job check
  // (every 30 s): recovery may take that long. Empty, it does not come (yet): a shorter wait shows it.
  redis: { entriesPerDay: 20_000, pageSize: 200 },
  redisRecoverMs: { 'with-data': 90_000, empty: 15_000 },
  disk: { entriesPerDay: 6_000, diskBytes: 2 * 2 ** 20 },
  longReader: { entriesPerDay: 15_000 },
  twoWorkers: { entriesPerDay: 5_000 },
  faults: { mixes: 3 },
  history: { kills: 4, entriesPerDay: 5_000 },
  // One kill aimed at each phase, chained; the disk faults are the directory's, run on SQLite above.
  twoWorkersHistory: { entriesPerDay: 2_000, finishMs: 60_000 },
  historyPostgres: { kills: 3, entriesPerDay: 2_000, diskFaults: false, chain: true },
} as const;
