// Scenario 7, short form: seeded random mixes of the simulator's fault knobs through `edgelog sync`.
import { beforeAll, describe, expect, it } from 'vitest';
import { faultsScenario, type FaultsReport } from './scenarios/faults.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`fault knob mixes (seed ${SEED})`, () => {
  let report: FaultsReport;
  beforeAll(async () => {
    report = await faultsScenario({ seed: SEED, ...SHORT.faults });
  }, SCENARIO_TIMEOUT_MS);

  it('each day ends retried to success or in a clear, permanent state shown by status; none hangs', () => {
    expect(Object.values(report.outcomes).reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(
      2 * SHORT.faults.mixes,
    );
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
