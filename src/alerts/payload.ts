// Pure: what receivers get. Webhooks receive Alertmanager's webhook v4 shape, so existing receivers
// work; Slack gets a line of text.
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
  /** A sql rule's row: its columns as labels (edgelog's own labels take precedence). */
  labels?: Record<string, string> | undefined;
}

/** Stable id of an alert (rule × source × zone), the same across restarts and machines. */
export function fingerprint(rule: string, source: string, zone: number): string {
  return createHash('sha256').update(`${rule}\u0000${source}\u0000${zone}`).digest('hex').slice(0, 16);
}

const ZERO_TIME = '0001-01-01T00:00:00Z'; // Alertmanager's "no end yet"

export function alertmanagerPayload(notice: Notice, receiver: string): Record<string, unknown> {
  const labels: Record<string, string> = {
    ...notice.labels,
    alertname: notice.rule,
    source: notice.source,
    zone: String(notice.zone),
    rule_type: notice.ruleType,
    ...(notice.severity ? { severity: notice.severity } : {}),
  };
  const annotations = { summary: notice.summary, ...notice.details };
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
    alerts: [
      {
        status: notice.status,
        labels,
        annotations,
        startsAt: new Date(notice.startsAt).toISOString(),
        endsAt: notice.endsAt === null ? ZERO_TIME : new Date(notice.endsAt).toISOString(),
        generatorURL: '',
        fingerprint: notice.fingerprint,
      },
    ],
  };
}

/**
 * Slack's three control characters written as its escapes: a summary may quote archived values (a new
 * term, a sql rule's labels), and `<!channel>` or `<https://…|text>` in one would page a channel or
 * plant a link.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function slackPayload(notice: Notice): { text: string } {
  const icon = notice.status === 'firing' ? ':rotating_light:' : ':white_check_mark:';
  const figures = Object.entries(notice.details)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return {
    text: slackEscape(
      `${icon} [${notice.status.toUpperCase()}] ${notice.rule} (${notice.source} zone ${notice.zone}): ${notice.summary}${figures ? ` — ${figures}` : ''}`,
    ),
  };
}

/** Header value for a body signed with a hook's secret: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
