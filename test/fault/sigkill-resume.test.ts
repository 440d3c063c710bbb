// Scenario 1, short form: SIGKILLs at random instants of one sync, each followed by a restart.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioReport } from './lib/report.js';
import { killsScenario } from './scenarios/kills.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`SIGKILL at random instants, then restarts (seed ${SEED})`, () => {
  let report: ScenarioReport;
  beforeAll(async () => {
    report = await killsScenario({ seed: SEED, ...SHORT.kills });
  }, SCENARIO_TIMEOUT_MS);

  it('every kill landed before the sync was done, and the archive ends exact, sound and truly counted', () => {
    expect(report.kills).toBe(SHORT.kills.kills);
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    expect(report.secretsScanned).toBeGreaterThan(0);
  });
});
