// The history under faults, short form (npm run soak runs the long one): SIGKILLs while parts are
// written (the flush's and the merges'), after the flush and while pruning, a full and a read-only
// history directory; the parts and the store together
// stay exactly the simulator's oracle (test/fault/scenarios/history.ts). On SQLite, and on PostgreSQL
// when a server answers (the kills only: the disk faults are the history directory's, not the store's).
import { beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '../support/stores.js';
import { historyScenario, type HistoryReport } from './scenarios/history.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`the history under SIGKILL, a full and a read-only disk (seed ${SEED})`, () => {
  let report: HistoryReport;
  beforeAll(async () => {
    report = await historyScenario({ seed: SEED, ...SHORT.history });
  }, SCENARIO_TIMEOUT_MS);

  it('every zone-day stays whole in files or store, and history_days claims only what the files hold', () => {
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    expect(report.kills).toBeGreaterThan(0);
  });
});

describePostgres(`the history under SIGKILL in each phase (seed ${SEED})`, () => {
  let report: HistoryReport;
  beforeAll(async () => {
    report = await historyScenario({ seed: SEED, ...SHORT.historyPostgres, store: 'postgres' });
  }, SCENARIO_TIMEOUT_MS);

  it('a kill in each phase; every zone-day whole in files or store, history_days and the partitions true', () => {
    expect(report.problems, report.notes.join('\n')).toEqual([]);
    const { compaction, flushed, pruning } = report.phases;
    expect(Math.min(compaction, flushed, pruning), report.notes.join('\n')).toBeGreaterThan(0);
  });
});
