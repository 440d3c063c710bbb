// Scenario 5, short form: a reader holds a read transaction through an ingest.
import { beforeAll, describe, expect, it } from 'vitest';
import { longReaderScenario, type LongReaderReport } from './scenarios/long-reader.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`a long read transaction during an ingest (seed ${SEED})`, () => {
  let report: LongReaderReport;
  beforeAll(async () => {
    report = await longReaderScenario({ seed: SEED, ...SHORT.longReader });
  }, SCENARIO_TIMEOUT_MS);

  it('the WAL grows while the reader holds its snapshot, and not beyond that once it lets go', () => {
    expect(report.walHeldBytes).toBeGreaterThan(report.archiveBytes / 4);
    expect(report.walAfterBytes).toBeLessThanOrEqual(report.walHeldBytes * 1.1);
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
