// Two workers, one history, short form: two `edgelog run` (as two hosts) on one Redis, one store and one
// history directory compact and prune the same days, one SIGKILLed while it holds a day's lease
// (test/fault/scenarios/two-workers-history.ts). On PostgreSQL, where several hosts share a store, when a
// server answers; on SQLite (one host's processes) in `npm run soak`.
import { beforeAll, expect, it } from 'vitest';
import { describePostgres } from '../support/stores.js';
import { twoWorkersHistoryScenario, type TwoWorkersHistoryReport } from './scenarios/two-workers-history.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describePostgres(`two workers, one history, one killed (seed ${SEED})`, () => {
  let report: TwoWorkersHistoryReport;
  beforeAll(async () => {
    report = await twoWorkersHistoryScenario({ seed: SEED, ...SHORT.twoWorkersHistory, store: 'postgres' });
  }, SCENARIO_TIMEOUT_MS);

  it('each zone-day published once, none lost, the files and the store exact', () => {
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    expect(report.kills).toBeGreaterThan(1);
    expect(Object.keys(report.published)).toHaveLength(8);
  });
});
