// The `hostileText` knob: an API (or the attackers whose requests a WAF logged) that puts terminal
// control sequences in every string it sends. Entries carry HOSTILE_TEXT at the start of each string
// field; error answers carry it in their messages. Identifiers the client acts on (errorKey, a problem's
// type and instance, continuation tokens) stay as they are, so every answer still means what it did.
import type { Reply } from './replies.js';

/**
 * A CSI that clears the screen and homes the cursor, an OSC that sets the window title (BEL-ended), a
 * C1 CSI (one byte a terminal may read as ESC [) and a right-to-left override; then, for the web
 * console, markup that would run a script if a page ever took archived text for HTML.
 */
export const HOSTILE_TEXT =
  '\x1b[2J\x1b[H\x1b]0;pwned\x07\u009b31m\u202e<script>alert(1)</script><img src=x onerror=alert(2)>';

/** Marks one string of an answer: unchanged, or with HOSTILE_TEXT in front. */
export type Mark = (text: string) => string;

export const plainText: Mark = (text) => text;
export const hostileText: Mark = (text) => `${HOSTILE_TEXT}${text}`;

/** Keys of an error body that hold a message for people (and so get the hostile text). */
const MESSAGE_KEYS = new Set(['message', 'title', 'detail']);

function markMessages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(markMessages);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      MESSAGE_KEYS.has(key) && typeof v === 'string' ? hostileText(v) : markMessages(v),
    ]),
  );
}

/**
 * An error answer (a status of 400 or more, or an inline failure inside a 2xx) with HOSTILE_TEXT in
 * every message; a body with no message (`{"statusCode":404}`) gets one. Other answers are unchanged.
 */
export function hostileReply(reply: Reply): Reply {
  if (typeof reply.body !== 'string' || !reply.contentType?.includes('json')) return reply;
  if (reply.status < 400 && !reply.body.includes('"success":false')) return reply;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    return reply;
  }
  const marked = markMessages(body) as Record<string, unknown>;
  const hasMessage = ['message', 'title', 'detail'].some((k) => typeof marked[k] === 'string');
  if (reply.status >= 400 && !hasMessage) {
    marked.message = hostileText(`the request failed with status ${reply.status}`);
  }
  return { ...reply, body: JSON.stringify(marked) };
}
