// Scenario 4, short form: the archive's disk fills up mid-ingest (a small tmpfs where this run may mount
// one, and a file size limit), and the archive is made read-only mid-ingest.
import { beforeAll, describe, expect, it } from 'vitest';
import { diskScenario, type DiskOptions, type DiskReport } from './scenarios/disk.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe.each<DiskOptions['variant']>(['full', 'full-ulimit', 'read-only'])(
  `disk fault %s (seed ${SEED})`,
  (variant) => {
    let report: DiskReport;
    beforeAll(async () => {
      report = await diskScenario({ seed: SEED, variant, ...SHORT.disk });
    }, SCENARIO_TIMEOUT_MS);

    it('the run ends, the ledger claims nothing the tables lack, and with room again the archive ends exact', () => {
      expect(report.ended).toBe(true);
      expect(report.truthful).toBe(true);
      expect(report.recovered).toBe(true);
      expect(report.problems, report.notes.join('\n')).toEqual([]);
    });

    // It used to be SQLite's own ("database or disk is full"), naming neither the file nor what to do.
    it('the error names the archive and the cause', () => {
      expect(report.clearMessage, report.failureText).toBe(true);
    });
  },
);
