// Scenario 5, short form: a reader holds a read transaction through an ingest.
import { beforeAll, describe, expect, it } from 'vitest';
import { longReaderScenario, type LongReaderReport } from './scenarios/long-reader.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`a long read transaction during an ingest (seed ${SEED})`, () => {
  let report: LongReaderReport;
  beforeAll(async () => {
    report = await longReaderScenario({ seed: SEED, ...SHORT.longReader });
  }, SCENARIO_TIMEOUT_MS);

  it('the WAL grows while the reader holds its snapshot, and stops growing once it has let go', () => {
    // The premise: the WAL took in the day (three days make the archive).
    expect(report.walHeldBytes).toBeGreaterThan(report.archiveBytes / 8);
    expect(report.walAfterBytes).toBeLessThanOrEqual(
      Math.max(report.walHeldBytes, report.walReleasedBytes) * 1.1,
    );
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});
