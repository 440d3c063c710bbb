// Scenario 4, short form: the archive's disk fills up mid-ingest (a small tmpfs, and a file size limit),
// and the archive is made read-only mid-ingest. The tmpfs variant needs a run that may mount one: it is
// skipped elsewhere, saying why, and fails in CI (test/support/tmpfs.ts); it never quietly becomes the
// file size limit again.
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithTmpfs } from '../support/tmpfs.js';
import { diskScenario, type DiskOptions, type DiskReport } from './scenarios/disk.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

const VARIANTS: Array<
  [DiskOptions['variant'], DiskReport['via'], typeof describe | typeof describeWithTmpfs]
> = [
  ['full', 'tmpfs', describeWithTmpfs],
  ['full-ulimit', 'ulimit', describe],
  ['read-only', 'chmod', describe],
];

for (const [variant, via, describeVariant] of VARIANTS) {
  describeVariant(`disk fault ${variant} (seed ${SEED})`, () => {
    let report: DiskReport;
    beforeAll(async () => {
      report = await diskScenario({ seed: SEED, variant, ...SHORT.disk });
    }, SCENARIO_TIMEOUT_MS);

    it(`the fault is made by ${via}`, () => {
      expect(report.via).toBe(via);
    });

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
  });
}
