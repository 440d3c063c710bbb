// Pure: a hook's request as `alerts test --dry-run` and `alerts check --dry-run` print it: the method,
// URL, headers and body exactly as they would be sent, except credentials. The Authorization header and
// a hook's own headers are shown as [REDACTED]; a Slack URL's path (itself the secret) is hidden; any
// credential that still appears anywhere (a token inside a body) is replaced; text a terminal would act
// on is escaped.
import { safeJson, safeText } from '../format/terminal-text.js';
import { REDACTED } from '../redact.js';
import type { NoticeRequest } from './notice-request.js';

/** Headers edgelog makes from public parts (the rest carry credentials, or are the hook's own). */
const SHOWN = new Set(['content-type', 'user-agent', 'idempotency-key', 'x-edgelog-signature']);

export interface ShowRequestOptions {
  /**
   * A JSON body indented, two spaces a level (a person's terminal; the request sends it on one line);
   * a body that is not JSON (a template's text) is shown as it is. @defaultValue false
   */
  pretty?: boolean | undefined;
}

export function showRequest(req: NoticeRequest, slack: boolean, opts: ShowRequestOptions = {}): string {
  const url = slack
    ? `${req.url.origin}/${REDACTED}`
    : `${req.url.origin}${req.url.pathname}${req.url.search}`;
  const lines = [`${req.method} ${url}`];
  for (const [name, value] of Object.entries(req.headers)) {
    const shown = SHOWN.has(name.toLowerCase())
      ? value
      : name.toLowerCase() === 'authorization'
        ? `${value.split(' ')[0]} ${REDACTED}`
        : REDACTED;
    lines.push(`${name}: ${shown}`);
  }
  const body = opts.pretty ? indented(req.body) : req.body;
  const text = `${lines.map((l) => safeText(l)).join('\n')}\n\n${safeJson(body)}`;
  return hideSecrets(text, req.secrets);
}

/** A JSON text indented (the same value), or the text as it is when it is not JSON. */
function indented(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Every credential the request carries, in the forms it may take in the text, replaced. */
function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = secrets
    .filter((s) => s.length >= 4)
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  for (const form of forms) out = out.split(form).join(REDACTED);
  return out;
}
