// Scenario 6, short form: two `edgelog run` on one Redis and one archive, and a third planning again.
import { beforeAll, describe, expect, it } from 'vitest';
import { twoWorkersScenario, type TwoWorkersReport } from './scenarios/two-workers.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`two workers, one archive (seed ${SEED})`, () => {
  let report: TwoWorkersReport;
  beforeAll(async () => {
    report = await twoWorkersScenario({ seed: SEED, ...SHORT.twoWorkers });
  }, SCENARIO_TIMEOUT_MS);

  it('the archive ends exact, no lock errors, and each finished day was fetched once', () => {
    expect(Object.keys(report.fetches)).toHaveLength(8);
    // A day fetched twice: problems say what the workers logged about it.
    expect(
      Object.values(report.fetches).every((n) => n === 1),
      report.problems.join('\n'),
    ).toBe(true);
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
