// Pure: what receivers get. Webhooks receive Alertmanager's webhook v4 shape, so existing receivers
// work; Slack gets a line of text (a line per notice for a group). A hook's template (templates.ts)
// makes Slack's text, or each webhook alert's `description` annotation.
import { createHash, createHmac } from 'node:crypto';

export interface Notice {
  /** Idempotency key: one per state change (and per re-notification). */
  id: string;
  rule: string;
  ruleType: 'spike' | 'flatline' | 'guardian' | 'new-term' | 'sql';
  source: string;
  zone: number;
  status: 'firing' | 'resolved';
  /** When the alert started firing (ms). */
  startsAt: number;
  /** When it resolved (ms); null while firing. */
  endsAt: number | null;
  severity?: string | undefined;
  summary: string;
  /** Rule-specific figures (count, reference, window, …) as strings. */
  details: Record<string, string>;
  fingerprint: string;
  /** The group it goes out with (notice-groups.ts); absent: alone. */
  group?: { key: string; closesAt: number } | undefined;
  /** A sql rule's row: its columns as labels (edgelog's own labels take precedence). */
  labels?: Record<string, string> | undefined;
}

/** Stable id of an alert (rule × source × zone), the same across restarts and machines. */
export function fingerprint(rule: string, source: string, zone: number): string {
  return createHash('sha256').update(`${rule}\u0000${source}\u0000${zone}`).digest('hex').slice(0, 16);
}

const ZERO_TIME = '0001-01-01T00:00:00Z'; // Alertmanager's "no end yet"

function labelsOf(notice: Notice): Record<string, string> {
  // A sql row's column named `severity` does not stand for the rule's, absent or not (silences.ts
  // seriesLabels decides the same, so a silence matches what receivers get).
  const row = Object.entries(notice.labels ?? {}).filter(([name]) => name !== 'severity');
  return {
    ...Object.fromEntries(row),
    alertname: notice.rule,
    source: notice.source,
    zone: String(notice.zone),
    rule_type: notice.ruleType,
    ...(notice.severity ? { severity: notice.severity } : {}),
  };
}

const annotationsOf = (notice: Notice): Record<string, string> => ({
  summary: notice.summary,
  ...notice.details,
});

/** Renders an alert's `description` annotation (a hook's template); none by default. */
export type Describe = (notice: Notice) => string;

function alertOf(notice: Notice, describe?: Describe): Record<string, unknown> {
  return {
    status: notice.status,
    labels: labelsOf(notice),
    annotations: describe
      ? { ...annotationsOf(notice), description: describe(notice) }
      : annotationsOf(notice),
    startsAt: new Date(notice.startsAt).toISOString(),
    endsAt: notice.endsAt === null ? ZERO_TIME : new Date(notice.endsAt).toISOString(),
    generatorURL: '',
    fingerprint: notice.fingerprint,
  };
}

/** The pairs every one of `maps` holds with the same value (Alertmanager's commonLabels). */
export function common(maps: ReadonlyArray<Record<string, string>>): Record<string, string> {
  const [first, ...rest] = maps;
  if (!first) return {};
  return Object.fromEntries(
    Object.entries(first).filter(([k, v]) => rest.every((m) => Object.hasOwn(m, k) && m[k] === v)),
  );
}

/**
 * One webhook v4 payload for several notices of one rule (a group): an alert each; the group is by
 * alertname, as Alertmanager's default route; `status` is firing while any of them fires.
 */
export function alertmanagerGroupPayload(
  notices: readonly Notice[],
  receiver: string,
  describe?: Describe,
): Record<string, unknown> {
  if (notices.length === 0) throw new RangeError('a group has at least one notice');
  const rule = notices[0]!.rule;
  return {
    version: '4',
    groupKey: `{}:{alertname=${JSON.stringify(rule)}}`,
    truncatedAlerts: 0,
    status: notices.some((n) => n.status === 'firing') ? 'firing' : 'resolved',
    receiver,
    groupLabels: { alertname: rule },
    commonLabels: common(notices.map(labelsOf)),
    commonAnnotations: common(notices.map(annotationsOf)),
    externalURL: '',
    alerts: notices.map((n) => alertOf(n, describe)),
  };
}

/** A group's Slack message: a line for the group, then one per notice. */
export function slackGroupPayload(notices: readonly Notice[], text?: string): { text: string } {
  if (text !== undefined) return { text };
  const firing = notices.filter((n) => n.status === 'firing').length;
  const icon = firing > 0 ? ':rotating_light:' : ':white_check_mark:';
  const counts = [
    firing > 0 ? `FIRING:${firing}` : '',
    notices.length > firing ? `RESOLVED:${notices.length - firing}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const e = slackEscape;
  const lines = notices.map(
    (n) => `• [${n.status.toUpperCase()}] ${e(n.source)} zone ${n.zone}: ${e(n.summary)}${figuresOf(n)}`,
  );
  return { text: [`${icon} [${counts}] ${e(notices[0]!.rule)}`, ...lines].join('\n') };
}

export function alertmanagerPayload(
  notice: Notice,
  receiver: string,
  describe?: Describe,
): Record<string, unknown> {
  const labels = labelsOf(notice);
  const alert = alertOf(notice, describe);
  const annotations = alert.annotations as Record<string, string>;
  return {
    version: '4',
    groupKey: `{}:{alertname="${notice.rule}", zone="${notice.zone}"}`,
    truncatedAlerts: 0,
    status: notice.status,
    receiver,
    groupLabels: { alertname: notice.rule, zone: String(notice.zone) },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: '',
    alerts: [alert],
  };
}

/**
 * A value as Slack mrkdwn text: `&`, `<` and `>` escaped, as Slack asks, so that an archived value
 * (`<!channel>`, `<https://evil|click>`) reads as itself and pings or links nobody.
 */
export function slackEscape(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** ` — k=v, …` of a notice's figures (escaped for Slack), or nothing. */
function figuresOf(n: Notice): string {
  const figures = Object.entries(n.details)
    .map(([k, v]) => `${slackEscape(k)}=${slackEscape(v)}`)
    .join(', ');
  return figures ? ` — ${figures}` : '';
}

/** A notice's Slack message; `text` replaces the default text (a hook's template, escaped already). */
export function slackPayload(notice: Notice, text?: string): { text: string } {
  if (text !== undefined) return { text };
  const icon = notice.status === 'firing' ? ':rotating_light:' : ':white_check_mark:';
  const e = slackEscape;
  return {
    text: `${icon} [${notice.status.toUpperCase()}] ${e(notice.rule)} (${e(notice.source)} zone ${notice.zone}): ${e(notice.summary)}${figuresOf(notice)}`,
  };
}

/** Header value for a body signed with a hook's secret: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
