// A report from start to finish, minus the CLI: build the data from the archive, render it or print it
// as JSON.
import Database from 'better-sqlite3';
import { EdgelogError } from '../errors/index.js';
import type { ReportReads, ReportStore } from '../store/store.js';
import type { Output } from '../format/output.js';
import type { Day } from '../time/utc-day.js';
import { buildGuardianReport, type GuardianReport } from './guardian-report.js';
import { buildOriginReport, type OriginReport } from './origin-report.js';
import { renderGuardianReport } from './render-guardian.js';
import { renderOriginReport } from './render-origin.js';
import { renderShieldReport } from './render-shield.js';
import { buildShieldReport, type ShieldReport } from './shield-report.js';
import type { ReportParams } from './sources.js';
import { reportWindow } from './window.js';

export const REPORT_KINDS = ['origin', 'shield', 'guardian'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export type Report = OriginReport | ShieldReport | GuardianReport;

/** Entries per "top" list by default. */
export const DEFAULT_TOP = 10;

export interface ReportOptions {
  /** One zone; all zones when absent. */
  zone?: number | undefined;
  /** @defaultValue six days before `to` */
  from?: Day | undefined;
  /** @defaultValue today (UTC) */
  to?: Day | undefined;
  /** @defaultValue 'table' */
  format?: 'table' | 'json';
  /** Entries per "top" list; snapshots listed per zone for `guardian`. @defaultValue DEFAULT_TOP */
  top?: number | undefined;
  /** Chart width in columns. @defaultValue 80 */
  width?: number | undefined;
  /** The clock (milliseconds since the epoch), for the default range. */
  now: number;
}

export function buildReport(reads: ReportReads, kind: ReportKind, params: ReportParams): Promise<Report> {
  switch (kind) {
    case 'origin':
      return buildOriginReport(reads, params);
    case 'shield':
      return buildShieldReport(reads, params);
    case 'guardian':
      return buildGuardianReport(reads, params);
  }
}

export function renderReport(report: Report, opts: { width?: number; top?: number } = {}): string {
  const width = opts.width ?? 80;
  switch (report.source) {
    case 'origin':
      return renderOriginReport(report, { width });
    case 'shield':
      return renderShieldReport(report, { width });
    case 'guardian':
      return renderGuardianReport(report, { width, snapshots: opts.top ?? DEFAULT_TOP });
  }
}

/**
 * Builds the report and writes it; returns the data. Throws UsageError for a backwards range and
 * EdgelogError when the file lacks the archive's tables.
 */
export async function runReport(
  reports: ReportStore,
  kind: ReportKind,
  opts: ReportOptions,
  out: Output,
): Promise<Report> {
  const window = reportWindow({ from: opts.from, to: opts.to, now: opts.now });
  const top = opts.top ?? DEFAULT_TOP;
  let report: Report;
  try {
    const params = { scope: { zone: opts.zone ?? null, window }, top, now: opts.now };
    report = await reports.snapshot((reads) => buildReport(reads, kind, params));
  } catch (err) {
    // In practice: a file that is not an edgelog archive, or one never migrated.
    if (err instanceof Database.SqliteError)
      throw new EdgelogError('cannot read the archive (is it an edgelog database? try `edgelog migrate`)', {
        cause: err,
      });
    throw err;
  }
  await out.write(
    opts.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : renderReport(report, { top, ...(opts.width ? { width: opts.width } : {}) }),
  );
  return report;
}
