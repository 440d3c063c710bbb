// Scenario 7, short form: seeded random mixes of the simulator's fault knobs through `edgelog sync`. On
// SQLite, and on PostgreSQL when a server answers (a skipped test says how to enable it otherwise).
import { beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '../support/stores.js';
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

describePostgres(`fault knob mixes (seed ${SEED})`, () => {
  let report: FaultsReport;
  beforeAll(async () => {
    report = await faultsScenario({ seed: SEED, ...SHORT.faults, store: 'postgres' });
  }, SCENARIO_TIMEOUT_MS);

  it('each day ends retried to success or in a clear, permanent state shown by status; none hangs', () => {
    expect(Object.values(report.outcomes).reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(
      2 * SHORT.faults.mixes,
    );
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
