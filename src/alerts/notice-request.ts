// Pure: exactly the HTTP request a hook is sent for a notice, or for a group of them: URL, headers and
// body. `deliver` sends it; `alerts test --dry-run` and `alerts check --dry-run` print it (redacted).
import type { HookConfig } from '../config/index.js';
import { hookRequest } from './hook-request.js';
import {
  alertmanagerGroupPayload,
  alertmanagerPayload,
  signature,
  slackGroupPayload,
  slackPayload,
  type Notice,
} from './payload.js';

/** What one delivery carries: one notice, or a group's (its key is then the group's). */

/** A hook's template, compiled (templates.ts): the text of a delivery. */
export type RenderText = (d: Delivery, hook: string) => string;

export interface Delivery {
  /** The Idempotency-Key: the notice's id, or the group's. */
  key: string;
  notices: Notice[];
}

export const single = (notice: Notice): Delivery => ({ key: notice.id, notices: [notice] });

export interface NoticeRequest {
  method: 'POST';
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** Every credential the request carries (hook-request.ts): to be kept out of any output. */
  secrets: string[];
  /** The URL as messages may show it (a Slack URL's path is itself a secret). */
  display: string;
}

/**
 * The body: Slack's message (the template's text when the hook has one), or the webhook v4 payload
 * (the template rendering each alert's `description` annotation).
 */
export function noticeBody(hookName: string, hook: HookConfig, d: Delivery, render?: RenderText): string {
  const [first] = d.notices;
  if (!first) throw new RangeError('a delivery has at least one notice');
  const one = d.notices.length === 1;
  if (hook.type === 'slack') {
    const text = render?.(d, hookName);
    return JSON.stringify(one ? slackPayload(first, text) : slackGroupPayload(d.notices, text));
  }
  const describe = render && ((n: Notice) => render({ key: d.key, notices: [n] }, hookName));
  return JSON.stringify(
    one
      ? alertmanagerPayload(first, hookName, describe)
      : alertmanagerGroupPayload(d.notices, hookName, describe),
  );
}

export function noticeRequest(
  hookName: string,
  hook: HookConfig,
  d: Delivery,
  render?: RenderText,
): NoticeRequest {
  const body = noticeBody(hookName, hook, d, render);
  const { url, headers: own, secrets } = hookRequest(hook);
  const headers: Record<string, string> = {
    ...own,
    'content-type': 'application/json',
    'user-agent': 'edgelog',
    'idempotency-key': d.key,
  };
  if (hook.type === 'webhook' && hook.secret) {
    headers['x-edgelog-signature'] = signature(hook.secret, body);
    secrets.push(hook.secret);
  }
  const display = hook.type === 'slack' ? `${url.origin}/…` : `${url.origin}${url.pathname}`;
  return { method: 'POST', url, headers, body, secrets, display };
}
