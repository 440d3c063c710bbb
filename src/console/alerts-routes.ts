// The alerts page's API (docs/CONSOLE.md): the configured rules with their state per zone, the latest
// notices, the silences; a silence's live preview (the alerts it would hold now); and the two writes,
// making a silence and expiring one — the same rules, checks and store as `edgelog alerts silence` and
// `unsilence` (alerts/silences.ts planSilence; the store's silences). Reads go through the query lane;
// a write opens the store, writes and closes it, as the command does.
import { formatMatcher, matchesAll } from '../alerts/silence-matchers.js';
import { newSilenceId, planSilence, silenceFromRow, silenceToRow, type Silence } from '../alerts/silences.js';
import { storedAlerts, type SeriesAlertRow, type ZoneAlertRow } from '../alerts/stored-alerts.js';
import { parseDuration } from '../config/duration.js';
import {
  ALERT_STATES_SQL,
  recentNoticesSql,
  SERIES_STATES_SQL,
  silencesSql,
} from '../history/console-statements.js';
import type { SilenceRow, SilencesStore } from '../store/store.js';
import { answer, answerRows, type AnswerBounds } from './answers.js';
import type { QueryLane } from './query-lane.js';
import { badRequest, ConsoleRequestError } from './request-error.js';

/** What the console knows of the alerts: the configured rules, and how to reach the silences' store. */
export interface ConsoleAlerts {
  rules: ReadonlyArray<{ name: string; type: string; severity?: string | undefined }>;
  /** Opens the archive for a write (the worker's store, as `edgelog alerts silence` opens it). */
  openSilences(): Promise<{ silences: SilencesStore; close(): Promise<void> }>;
}

export interface AlertsContext {
  queries: QueryLane;
  bounds: AnswerBounds;
  /** null: the console was started from a reader's configuration, which names no rules. */
  alerts: ConsoleAlerts | null;
  now: () => number;
}

/** Notices the page lists. */
const RECENT_NOTICES = 50;
/** The page also lists the silences ended this recently. */
const ENDED_SHOWN_MS = 7 * 86_400_000;

const rowsOf = async <T>(ctx: AlertsContext, sql: string) =>
  answerRows<T>(await answer(ctx.queries, sql, { ...ctx.bounds, limit: 0 }));

function configured(ctx: AlertsContext): ConsoleAlerts {
  if (ctx.alerts === null)
    throw new ConsoleRequestError(
      404,
      'no alert rules',
      "this console was started from a reader's configuration: give it the worker's (with alerts.rules)",
    );
  return ctx.alerts;
}

/** GET /api/v1/alerts */
export async function alertsView(ctx: AlertsContext): Promise<unknown> {
  const alerts = configured(ctx);
  const now = ctx.now();
  const silences = (await rowsOf<SilenceRow>(ctx, silencesSql(now - ENDED_SHOWN_MS))).map((r) =>
    describe(silenceFromRow(r), now),
  );
  return {
    now,
    rules: alerts.rules.map((r) => ({ name: r.name, type: r.type, severity: r.severity ?? null })),
    states: await rowsOf(ctx, ALERT_STATES_SQL),
    series: await rowsOf(ctx, SERIES_STATES_SQL),
    notices: await rowsOf(ctx, recentNoticesSql(RECENT_NOTICES)),
    silences,
  };
}

const describe = (s: Silence, now: number) => ({
  id: s.id,
  matchers: s.matchers.map(formatMatcher).join(', '),
  state: now < s.startsAt ? 'pending' : now < s.endsAt ? 'active' : 'expired',
  startsAt: s.startsAt,
  endsAt: s.endsAt,
  comment: s.comment,
});

/** A silence request from the page (the preview's query string, or the write's JSON body). */
export interface SilenceForm {
  rule: string;
  zones: number[];
  match: string[];
  /** "2h", "30m", … @defaultValue 1h */
  for: string | null;
  comment: string | null;
}

/** The silence a form asks for, checked as the command checks it: a 400 naming what is wrong. */
function plan(alerts: ConsoleAlerts, form: SilenceForm, id: string, now: number): Silence {
  const rule = alerts.rules.find((r) => r.name === form.rule);
  if (rule === undefined)
    throw badRequest(
      `rule: no rule "${form.rule.slice(0, 100)}" in alerts.rules (configured: ${alerts.rules.map((r) => r.name).join(', ') || 'none'})`,
    );
  let forMs: number | undefined;
  if (form.for !== null && form.for !== '') {
    forMs = parseDuration(form.for);
    if (forMs === undefined || forMs <= 0 || forMs > 365 * 86_400_000)
      throw badRequest('for: a duration such as 30m, 2h or 1d (at most 365d)');
  }
  if (form.comment !== null && form.comment.length > 1000)
    throw badRequest('comment: at most 1,000 characters');
  try {
    return planSilence(
      {
        rule: rule.name,
        zones: form.zones,
        match: form.match,
        forMs,
        comment: form.comment ?? undefined,
        rowLabels: rule.type === 'sql',
      },
      id,
      now,
    );
  } catch (err) {
    throw badRequest((err as Error).message);
  }
}

/** The form from a query string (the preview). */
export function formOfParams(params: URLSearchParams): SilenceForm {
  return formOf({
    rule: params.get('rule'),
    zones: params
      .getAll('zone')
      .flatMap((z) => z.split(','))
      .filter((z) => z !== ''),
    match: params.getAll('match').filter((m) => m !== ''),
    for: params.get('for'),
    comment: params.get('comment'),
  });
}

/** The form from a JSON body; every field checked for its type. */
export function formOf(body: unknown): SilenceForm {
  if (typeof body !== 'object' || body === null) throw badRequest('expected a JSON object');
  const b = body as Record<string, unknown>;
  const text = (v: unknown, name: string): string | null => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw badRequest(`${name}: expected text`);
    return v;
  };
  const list = (v: unknown, name: string): unknown[] => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.length > 50) throw badRequest(`${name}: expected a list (at most 50)`);
    return v;
  };
  const rule = text(b.rule, 'rule');
  if (rule === null || rule === '') throw badRequest('rule: the rule to silence');
  return {
    rule,
    zones: list(b.zones, 'zones').map((z) => {
      const n = typeof z === 'string' && /^\d{1,16}$/.test(z) ? Number(z) : z;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badRequest('zones: zone ids');
      return n;
    }),
    match: list(b.match, 'match').map((m) => text(m, 'match') ?? ''),
    for: text(b.for, 'for'),
    comment: text(b.comment, 'comment'),
  };
}

/** GET /api/v1/silences/preview?rule=…&zone=…&match=…&for=…: the alerts the silence would hold now. */
export async function silencePreview(params: URLSearchParams, ctx: AlertsContext): Promise<unknown> {
  const alerts = configured(ctx);
  const now = ctx.now();
  const silence = plan(alerts, formOfParams(params), 'preview', now);
  const held = storedAlerts(
    await rowsOf<ZoneAlertRow>(ctx, ALERT_STATES_SQL),
    await rowsOf<SeriesAlertRow>(ctx, SERIES_STATES_SQL),
    alerts.rules,
  ).filter((a) => a.state !== 'inactive' && matchesAll(silence.matchers, a.labels));
  return { silence: describe(silence, now), alerts: held };
}

/** POST /api/v1/silences (JSON): makes the silence; 201 with it. */
export async function createSilence(body: unknown, ctx: AlertsContext): Promise<unknown> {
  const alerts = configured(ctx);
  const now = ctx.now();
  const silence = plan(alerts, formOf(body), newSilenceId(), now);
  await withSilences(alerts, (s) => s.add(silenceToRow(silence)));
  return describe(silence, now);
}

/** POST /api/v1/silences/expire (JSON `{"id": …}`): ends it now. */
export async function expireSilence(body: unknown, ctx: AlertsContext): Promise<unknown> {
  const alerts = configured(ctx);
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) throw badRequest('id: a silence id');
  const result = await withSilences(alerts, (s) => s.expire(id, ctx.now()));
  if (result === 'unknown') throw new ConsoleRequestError(404, 'not found', `no silence ${id}`);
  return { id, result };
}

async function withSilences<T>(alerts: ConsoleAlerts, write: (s: SilencesStore) => Promise<T>): Promise<T> {
  const store = await alerts.openSilences();
  try {
    return await write(store.silences);
  } finally {
    await store.close();
  }
}
