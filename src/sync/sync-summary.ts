// Pure: what `edgelog sync` prints when it is done — a line per day, what went wrong said once under the
// table, and the totals. Error text comes from the API (and so may be hostile): the table escapes it, and
// so does every line here (terminal-text.ts).
import { elapsed, formatTable, thousands } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import type { DayResult } from '../ingest/day-ingestor.js';
import type { LogSource } from '../store/store.js';

/** One day of the summary: how its pass ended, and the pass's figures (also those of a failed pass). */
export interface SyncDay {
  source: LogSource;
  zone: number;
  day: string;
  /** How the pass ended; `failed` when the job failed for good. */
  outcome: DayResult['outcome'] | 'failed';
  /** The day's ledger state (a complete day stays complete whatever a re-run meets). */
  state: string;
  /** The pass continued an interrupted one from its checkpoint. */
  resumed: boolean;
  pages: number;
  entries: number;
  newEntries: number;
  malformed: number;
  quarantined: number;
  durationMs?: number;
  /** Why the pass did not complete the day. */
  error?: string;
  /** Not fetched: a pass since the job was made already did (see queue/handlers.ts alreadyFetched). */
  skipped?: true;
}

export interface SyncSummary {
  /** Every day reached the end of its data, and every snapshot was taken. */
  ok: boolean;
  days: number;
  pages: number;
  entries: number;
  newEntries: number;
  malformed: number;
  quarantined: number;
  incomplete: number;
  expired: number;
  failed: number;
  guardianSnapshots: number;
  /** API requests that failed and were tried again (each retry is an info line in the log). */
  retries?: number;
  durationMs: number;
  results: SyncDay[];
  alerts?: { notices: number; delivered: number; pending: number };
  /** This process's peak resident memory so far, in MiB. */
  peakRssMb?: number;
  /** The history process's (history/history-process.ts), which writes the parts; null when none ran. */
  historyPeakRssMb?: number | null;
}

/** A Guardian snapshot of the sync: the zone, and why it failed if it did. */
export interface GuardianLine {
  zone: number;
  error?: string | undefined;
}

export interface SummaryOptions {
  /** Where the access key is set, for the hint (a file name, or a sentence naming the defaults). */
  configFile: string;
  /** Columns of the terminal the summary is printed on; none off a terminal. @defaultValue Infinity */
  width?: number;
}

/** The hint the API client adds to a 401/403 (api/http.ts): said once, under the table, instead. */
const KEY_HINT = ' (check the access key)';
/** The request URL an API error starts with: the row already names the source, zone and day. */
const URL_PREFIX = /^https?:\/\/\S+: (?=HTTP \d{3}\b)/;

/** Pure: a day's error as its table cell shows it: without the request URL, nor the access-key hint. */
export function errorCell(error: string): string {
  const text = error.replace(URL_PREFIX, '');
  return text.endsWith(KEY_HINT) ? text.slice(0, -KEY_HINT.length) : text;
}

const plural = (n: number, one: string, many = `${one}s`) => `${thousands(n)} ${n === 1 ? one : many}`;

/** Widest an error cell may be before the message is listed in full under the table. */
const ERROR_CELL = 100;

export function renderSummary(
  s: SyncSummary,
  guardian: readonly GuardianLine[],
  opts: SummaryOptions,
): string {
  const width = opts.width ?? Infinity;
  const errors = new Map<string, number>();
  for (const r of s.results)
    if (r.error) errors.set(errorCell(r.error), (errors.get(errorCell(r.error)) ?? 0) + 1);
  const table = formatTable(
    [
      { header: 'source', value: (r: SyncDay) => r.source },
      { header: 'zone', value: (r) => r.zone, right: true },
      { header: 'day', value: (r) => r.day },
      { header: 'outcome', value: (r) => (r.skipped ? `${r.outcome} (skipped)` : r.outcome) },
      { header: 'pages', value: (r) => r.pages, right: true },
      { header: 'entries', value: (r) => thousands(r.entries), right: true },
      { header: 'new', value: (r) => thousands(r.newEntries), right: true },
      { header: 'malformed', value: (r) => r.malformed, right: true },
      { header: 'quarantined', value: (r) => r.quarantined, right: true },
      {
        header: 'time',
        value: (r) => (r.durationMs !== undefined ? elapsed(r.durationMs) : ''),
        right: true,
      },
      ...(errors.size > 0
        ? [{ header: 'error', value: (r: SyncDay) => (r.error ? errorCell(r.error) : ''), flexible: true }]
        : []),
    ],
    s.results,
    { maxCell: ERROR_CELL, maxWidth: width },
  );
  const lines = s.results.length > 0 ? [table] : [];
  // An error the table had to cut is written out once, whole, under it.
  const shownWhole = (text: string) => table.includes(safeText(text.replace(/\s+/g, ' ')));
  const cut = [...errors].filter(([text]) => !shownWhole(text));
  if (cut.length > 0) {
    lines.push('');
    // The days' outcome is in their rows (failed, incomplete, expired): here, only how many and why.
    for (const [text, days] of cut) lines.push(`${plural(days, 'day')}: ${safeText(text)}`);
  }
  const refused = s.results.filter((r) => r.error?.endsWith(KEY_HINT)).length;
  if (refused > 0) {
    if (cut.length === 0) lines.push('');
    lines.push(
      `the API refused the access key on ${plural(refused, 'day')}: check api.accessKey in ${opts.configFile}, ` +
        'or the EDGELOG_ACCESS_KEY environment variable',
    );
  }
  for (const g of guardian) {
    lines.push(
      g.error ? `guardian ${g.zone}: failed: ${safeText(g.error)}` : `guardian ${g.zone}: snapshot stored`,
    );
  }
  const retried = s.retries ? `; ${plural(s.retries, 'request')} retried` : '';
  lines.push(
    `${plural(s.days, 'day')}, ${plural(s.pages, 'page')}, ${plural(s.entries, 'entry', 'entries')}, ` +
      `${thousands(s.newEntries)} new, ${thousands(s.malformed)} malformed, ${thousands(s.quarantined)} quarantined, ` +
      `${s.incomplete} incomplete, ${s.expired} expired, ${s.failed} failed in ${elapsed(s.durationMs)}${retried}`,
  );
  return lines.join('\n');
}
