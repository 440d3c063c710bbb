// The history under faults, short form (npm run soak runs the long one): SIGKILLs during compaction,
// publication and pruning, a full and a read-only history directory; the files and the store together
// stay exactly the simulator's oracle (test/fault/scenarios/history.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioReport } from './lib/report.js';
import { historyScenario } from './scenarios/history.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`the history under SIGKILL, a full and a read-only disk (seed ${SEED})`, () => {
  let report: ScenarioReport;
  beforeAll(async () => {
    report = await historyScenario({ seed: SEED, ...SHORT.history });
  }, SCENARIO_TIMEOUT_MS);

  it('every zone-day stays whole in files or store, and history_days claims only what the files hold', () => {
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    expect(report.kills).toBeGreaterThan(0);
  });
});
