// What a scenario reports: what was tried, how often, and what did not hold. The soak script prints these
// as its summary table; the tests assert that `problems` is empty.
import type { SimStats } from '../../../src/simulator/index.js';
import type { SecretScan } from './secrets.js';

export interface ScenarioReport {
  scenario: string;
  seed: number;
  /** CLI processes started. */
  runs: number;
  /** Signals sent to CLI processes and to redis-server (SIGKILL, SIGINT, SIGTERM). */
  kills: number;
  /** Faults injected: simulator faults that fired, plus disk and Redis faults. */
  faults: number;
  /** Bytes of output, archive files and Redis data scanned for the secrets. */
  secretsScanned: number;
  /** What did not hold; empty when everything did. */
  problems: string[];
  /** Facts worth printing (e.g. where the kills landed). */
  notes: string[];
}

/** A scenario's report before anything was tried (`faults`: those injected by its setup). */
export function startReport(scenario: string, seed: number, faults = 0): ScenarioReport {
  return { scenario, seed, runs: 0, kills: 0, faults, secretsScanned: 0, problems: [], notes: [] };
}

/** A scan for the secrets (Scene.scanSecrets) into the report: the bytes scanned, and what it found. */
export function recordSecretScan(
  report: ScenarioReport,
  scan: Pick<SecretScan, 'scanned' | 'findings'>,
): void {
  report.secretsScanned += scan.scanned;
  report.problems.push(...scan.findings);
}

/** Faults the simulator fired, over every kind. */
export function faultsFired(stats: SimStats): number {
  return Object.values(stats.faults).reduce((a, n) => a + n, 0);
}

/** A fixed-width table: one row per report. */
export function summaryTable(reports: readonly ScenarioReport[]): string {
  const rows = [
    ['scenario', 'runs', 'kills', 'faults', 'secrets scanned', 'result', 'seed'],
    ...reports.map((r) => [
      r.scenario,
      String(r.runs),
      String(r.kills),
      String(r.faults),
      `${(r.secretsScanned / 1024 / 1024).toFixed(1)} MiB`,
      r.problems.length === 0 ? 'held' : `FAILED (${r.problems.length})`,
      String(r.seed),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const right = new Set([1, 2, 3, 4, 6]);
  return rows
    .map((row) =>
      row.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '),
    )
    .join('\n');
}
