// Scenario 2, short form: SIGINT and SIGTERM at random instants on `sync` and `run`.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioReport } from './lib/report.js';
import { signalsScenario } from './scenarios/signals.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`SIGINT and SIGTERM on sync and run (seed ${SEED})`, () => {
  let report: ScenarioReport;
  beforeAll(async () => {
    report = await signalsScenario({ seed: SEED, ...SHORT.signals });
  }, SCENARIO_TIMEOUT_MS);

  it('each process stops within the shutdown bound, and a later sync completes the archive exactly', () => {
    expect(report.kills + report.notes.filter((n) => /ended before/.test(n)).length).toBe(
      4 * SHORT.signals.rounds,
    );
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
