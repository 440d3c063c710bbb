// Pure: the end of a migration, where the target must hold what the source holds: as many rows in every
// copied table, and in the rollups as many rows and the same sum of counts.
import { thousands } from '../../format/table.js';

export interface Check {
  table: string;
  /** `rows` (count(*)) or `sum(count)` (a rollup's entries). */
  measure: 'rows' | 'sum(count)';
  source: number;
  target: number;
}

export function checkPassed(c: Check): boolean {
  return c.source === c.target;
}

/** One line per failed check, with what it likely means; empty when every check passed. */
export function mismatches(checks: readonly Check[]): string[] {
  return checks
    .filter((c) => !checkPassed(c))
    .map((c) => {
      const what = `${c.table} ${c.measure}: ${thousands(c.source)} in the source, ${thousands(c.target)} in the target`;
      return c.target > c.source
        ? `${what} (the target held rows of its own before the copy, or a worker wrote to it meanwhile)`
        : `${what} (rows are missing: run migrate-store again)`;
    });
}
