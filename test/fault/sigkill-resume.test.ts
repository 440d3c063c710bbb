// Scenario 1, short form: SIGKILLs at random instants of one sync, each followed by a restart. On SQLite,
// and on PostgreSQL when a server answers (a skipped test says how to enable it otherwise).
import { beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '../support/stores.js';
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

describePostgres(`SIGKILL at random instants, then restarts (seed ${SEED})`, () => {
  let report: ScenarioReport;
  beforeAll(async () => {
    report = await killsScenario({ seed: SEED, ...SHORT.kills, store: 'postgres' });
  }, SCENARIO_TIMEOUT_MS);

  it('every kill landed before the sync was done, and the archive ends exact, sound and truly counted', () => {
    expect(report.kills).toBe(SHORT.kills.kills);
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    expect(report.notes.join('\n')).toMatch(/integrity check: amcheck/);
    expect(report.secretsScanned).toBeGreaterThan(0);
  });
});
