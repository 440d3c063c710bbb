// The JSON API under /api/v1/ (docs/CONSOLE.md): each route a function of the request's query string to
// a JSON body, every statement through the one query lane (the archive's dialect, `edgelog query`'s
// runner and bounds).
import {
  dashboardGuardianSql,
  dashboardHourlySql,
  dashboardTopSql,
  GUARDIAN_COUNTERS,
  HOURLY_SPLIT_OF,
  facetsSql,
  histogramBucket,
  histogramSql,
  ledgerSql,
  logsNewerSql,
  logsPageSql,
} from '../history/console-statements.js';
import type { ArchiveRelation } from '../history/archive-schema.js';
import { addDays, dayOf, parseDay, type Day } from '../time/utc-day.js';
import { answer, answerBody, answerEach, answerRows, type Answer, type AnswerBounds } from './answers.js';
import { ledgerCalendar, type LedgerRow } from './ledger-calendar.js';
import { encodeCursor, parseLogsRequest } from './logs-request.js';
import { overview, type ReadQueue } from './overview.js';
import {
  alertsView,
  createSilence,
  expireSilence,
  silencePreview,
  type ConsoleAlerts,
} from './alerts-routes.js';
import type { QueryLane } from './query-lane.js';
import { badRequest } from './request-error.js';

export interface ApiContext {
  queries: QueryLane;
  /** The archive's tables and views (read once at start). */
  schema: readonly ArchiveRelation[];
  /** The bounds of a statement: `edgelog query`'s time bound, and the rows an answer holds at most. */
  bounds: AnswerBounds;
  /** Rows a download holds at most (its time bound is `bounds.timeoutMs`). */
  downloadLimit: number;
  /** The ingest queue's state, for the overview; null: not known where Redis is. */
  queue: ReadQueue | null;
  /** The alert rules and the silences' store; null: a reader's configuration, which names none. */
  alerts: ConsoleAlerts | null;
  now: () => number;
}

/** A write's answer: a value sent as JSON, with 201 (POST, docs/CONSOLE.md). */
export type WriteRoute = (body: unknown, ctx: ApiContext) => Promise<unknown>;

/** A route's answer: JSON text. */
export type ApiRoute = (params: URLSearchParams, ctx: ApiContext) => Promise<string>;

/** The longest span the ledger calendar shows. */
const MAX_CALENDAR_DAYS = 400;

/** `?sql=…&limit=…&timeout=…` (ms): the statement's rows, as `edgelog query --format json` gives them. */
const query: ApiRoute = async (params, ctx) => {
  const sql = params.get('sql');
  if (sql === null || sql.trim() === '') throw badRequest('sql: the statement to run');
  const bounds = {
    limit: boundedInt(params.get('limit'), 'limit', ctx.bounds.limit),
    timeoutMs: boundedInt(params.get('timeout'), 'timeout', ctx.bounds.timeoutMs),
  };
  return answerBody(await answer(ctx.queries, sql, bounds), bounds);
};

/** A whole number from 1 up to the server's own bound (a request may lower a bound, never raise it). */
function boundedInt(text: string | null, name: string, max: number): number {
  if (text === null || text === '') return max;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`${name}: a whole number from 1 to ${max}`);
  return n;
}

const schema: ApiRoute = (_params, ctx) => Promise.resolve(JSON.stringify({ relations: ctx.schema }));

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD` (default: the last 14 days): the ledger calendar. */
const ledger: ApiRoute = async (params, ctx) => {
  const day = (name: string, fallback: Day): Day => {
    const text = params.get(name);
    if (text === null || text === '') return fallback;
    try {
      return parseDay(text);
    } catch {
      throw badRequest(`${name}: a UTC day, YYYY-MM-DD`);
    }
  };
  const to = day('to', dayOf(ctx.now()));
  const from = day('from', addDays(to, -13));
  if (from > to) throw badRequest('from: must not be after to');
  if (addDays(from, MAX_CALENDAR_DAYS) <= to) throw badRequest(`at most ${MAX_CALENDAR_DAYS} days`);
  const rows = answerRows<LedgerRow>(
    await answer(ctx.queries, ledgerSql(from, to), { ...ctx.bounds, limit: 0 }),
  );
  return JSON.stringify(ledgerCalendar(rows, from, to));
};

/**
 * The explorer (logs-request.ts): a page of lines newest first, the cursor of the next page, and on the
 * first page the histogram of every match over the range (the two over one snapshot: answerEach); or,
 * with `after` (the live tail), the lines newer than that one, oldest first. `newest` is where the tail
 * goes on from: the newest line shown so far (before any: the range's start).
 */
const logs: ApiRoute = async (params, ctx) => {
  const req = parseLogsRequest(params, ctx.now());
  const sql =
    req.after === null
      ? logsPageSql(req.filter, req.cursor, req.limit)
      : logsNewerSql(req.filter, req.after, req.limit);
  const withHistogram = req.cursor === null && req.after === null;
  const bucketMs = histogramBucket(req.filter.from, req.filter.to);
  const [answered, bars] = await answerEach(
    ctx.queries,
    [
      { sql, limit: req.limit },
      ...(withHistogram ? [{ sql: histogramSql(req.filter, bucketMs), limit: 0 }] : []),
    ],
    ctx.bounds.timeoutMs,
  );
  const page = answered!;
  const lines = answerRows<{ timestamp: number; log_id: string }>(page);
  const cursorOf = (l: { timestamp: number; log_id: string }) =>
    encodeCursor({ timestamp: Number(l.timestamp), logId: l.log_id });
  const first = lines[0];
  const last = lines[lines.length - 1];
  let next: string | null = null;
  let newest: string | null = null;
  if (req.after !== null) newest = last ? cursorOf(last) : encodeCursor(req.after);
  else {
    next = page.more && last ? cursorOf(last) : null;
    if (req.cursor === null)
      newest = first ? cursorOf(first) : encodeCursor({ timestamp: req.filter.from, logId: '' });
  }
  const histogram = bars === undefined ? null : { bucketMs, bars: answerRows(bars) };
  const head = JSON.stringify({
    source: req.filter.source,
    from: req.filter.from,
    to: req.filter.to,
    next,
    newest,
    more: page.more,
    histogram,
    columns: page.columns,
  });
  return `${head.slice(0, -1)},"lines":${page.rowsJson.trimEnd()}}`;
};

/** Values per field shown by the facets. */
const FACET_TOP = 10;

/** The explorer's filter (as /logs takes it): the top values of each field among the matches. */
const facets: ApiRoute = async (params, ctx) => {
  const req = parseLogsRequest(params, ctx.now());
  const top = byField(
    await answer(ctx.queries, facetsSql(req.filter, FACET_TOP), { ...ctx.bounds, limit: 0 }),
  );
  return JSON.stringify({ source: req.filter.source, top: FACET_TOP, facets: top });
};

/** An answer's (field, value, count) rows as lists of values per field. */
function byField(a: Answer) {
  const rows = answerRows<{ field: string; value: string | null; count: number }>(a);
  const out: Record<string, Array<{ value: string | null; count: number }>> = {};
  for (const r of rows) (out[r.field] ??= []).push({ value: r.value, count: r.count });
  return out;
}

/**
 * A zone dashboard (the explorer's parameters: source, zones, range, fields): the matches per hour by
 * kind (origin: status class; Shield: action) and by detail (origin: error code; Shield: rule), the top
 * URLs, countries and ASNs (origin: codes), and for Shield the Guardian counters over the range; its
 * statements over one snapshot (answerEach).
 */
const dashboard: ApiRoute = async (params, ctx) => {
  const req = parseLogsRequest(params, ctx.now());
  const shield = req.filter.source === 'shield';
  const [hourly, detail, top, guardian] = await answerEach(
    ctx.queries,
    [
      dashboardHourlySql(req.filter),
      dashboardHourlySql(req.filter, 'detail'),
      dashboardTopSql(req.filter, FACET_TOP),
      ...(shield ? [dashboardGuardianSql(req.filter)] : []),
    ].map((sql) => ({ sql, limit: 0 })),
    ctx.bounds.timeoutMs,
  );
  const { source, zones, from, to } = req.filter;
  return JSON.stringify({
    source,
    zones,
    from,
    to,
    hourly: answerRows(hourly!),
    detail: { split: HOURLY_SPLIT_OF[source].detail, hourly: answerRows(detail!) },
    top: byField(top!),
    guardian:
      guardian === undefined ? null : { counters: GUARDIAN_COUNTERS, snapshots: answerRows(guardian) },
  });
};

export const API_ROUTES: Readonly<Record<string, ApiRoute>> = {
  '/api/v1/overview': async (_params, ctx) => JSON.stringify(await overview(ctx)),
  '/api/v1/alerts': async (_params, ctx) => JSON.stringify(await alertsView(ctx)),
  '/api/v1/silences/preview': async (params, ctx) => JSON.stringify(await silencePreview(params, ctx)),
  '/api/v1/query': query,
  '/api/v1/schema': schema,
  '/api/v1/ledger': ledger,
  '/api/v1/logs': logs,
  '/api/v1/facets': facets,
  '/api/v1/dashboard': dashboard,
};

/** The writes (POST, JSON body): silences, with authentication and the CSRF defence (access.ts). */
export const WRITE_ROUTES: Readonly<Record<string, WriteRoute>> = {
  '/api/v1/silences': createSilence,
  '/api/v1/silences/expire': expireSilence,
};
