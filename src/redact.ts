// Secrets never leave the process in text: not in a log line, an error message, the ledger, a BullMQ
// failedReason, nor the terminal. The API may echo the access key back in an error body, and libraries
// put URLs (with their credentials) into their messages, so redacting known fields is not enough: every
// secret edgelog is given is registered here where it is first used, and text is scrubbed where it
// leaves (logger, errors, ledger, CLI). One registry per thread; a page thread registers its own.

export const REDACTED = '[REDACTED]';

/** Shorter values are not registered: scrubbing them would garble ordinary text, and no real key is. */
const MIN_SECRET = 4;

const secrets = new Set<string>();
let pattern: RegExp | null = null;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Registers a secret, with the forms it takes when quoted in JSON or a URL. */
export function registerSecret(value: string | null | undefined): void {
  if (!value || value.length < MIN_SECRET) return;
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
  let added = false;
  for (const form of forms) {
    if (!secrets.has(form)) {
      secrets.add(form);
      added = true;
    }
  }
  // Longest first, so a secret that contains another is replaced whole.
  if (added) {
    const all = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    pattern = new RegExp(all.join('|'), 'g');
  }
}

/**
 * Registers the password of a URL, if it has one. The user name is an identity, not a secret, and is
 * often a common word (`postgres://postgres:…@`, `redis://default:…@`): registered, it would garble every
 * text holding that word, the URL's own scheme included. A URL's `user:password@` is removed anyway.
 */
export function registerUrlCredentials(url: string | URL | null | undefined): void {
  if (!url) return;
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    registerSecret(decodeURIComponent(u.password));
    registerSecret(u.password);
  } catch {
    // Not a URL: nothing to register.
  }
}

/** The Authorization value a URL's `user:password@` is sent as (Basic, base64), when it has one. */
function registerBasicCredentials(url: string): void {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
      registerSecret(Buffer.from(pair).toString('base64'));
    }
  } catch {
    // Not a URL: the configuration check reports it.
  }
}

/** `text` with every registered secret and every URL's credentials replaced. */
export function redact(text: string): string {
  let out = pattern ? text.replace(pattern, REDACTED) : text;
  // user:password@ in any URL, registered or not.
  if (out.includes('@'))
    out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@:]*:[^/\s@]*@/gi, `$1${REDACTED}@`);
  return out;
}

/** A URL without its credentials, for display. */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(typeof url === 'string' ? url : url.href);
    if (!u.username && !u.password) return u.href;
    u.username = '';
    u.password = '';
    return redact(u.href);
  } catch {
    return redact(String(url));
  }
}

/**
 * Redacts an error in place: its message, its stack, its own fields, and its causes'.
 * Returns it, for `throw redactError(err)`.
 */
export function redactError<E>(err: E, depth = 0): E {
  if (typeof err !== 'object' || err === null || depth > 5) return err;
  const e = err as Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };
  try {
    if (typeof e.message === 'string') e.message = redact(e.message);
    if (typeof e.stack === 'string') e.stack = redact(e.stack);
    // Own fields: an HTTP error's body, an inline error's apiMessage, and the like.
    for (const key of Object.keys(e)) {
      const value = e[key];
      if (key === 'cause') continue;
      if (typeof value === 'string') e[key] = redact(value);
      else if (typeof value === 'object' && value !== null) {
        try {
          e[key] = JSON.parse(redact(JSON.stringify(value))) as unknown;
        } catch {
          // Not JSON-able (a cycle): left as it is.
        }
      }
    }
  } catch {
    // A frozen or odd error: leave it; the text sinks redact again.
  }
  if (e.cause !== undefined) redactError(e.cause, depth + 1);
  return err;
}

/** Forgets every secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
  pattern = null;
}

/** The secrets of a configuration: the access key, hook secrets and Slack URLs, credentials in URLs. */
export function registerConfigSecrets(config: {
  api: { accessKey?: string | undefined; baseUrl: string; originLogUrl: string; videoUrl: string };
  redis: { url: string };
  alerts: {
    hooks: Record<
      string,
      {
        type: string;
        url: string;
        secret?: string | undefined;
        bearerToken?: string | undefined;
        headers?: Readonly<Record<string, string>> | undefined;
      }
    >;
  };
}): void {
  registerSecret(config.api.accessKey);
  for (const url of [config.api.baseUrl, config.api.originLogUrl, config.api.videoUrl, config.redis.url])
    registerUrlCredentials(url);
  for (const hook of Object.values(config.alerts.hooks)) {
    registerSecret(hook.secret);
    registerUrlCredentials(hook.url);
    // A hook's credentials: its token, every header value, and the Basic value its URL's become.
    registerSecret(hook.bearerToken);
    for (const value of Object.values(hook.headers ?? {})) registerSecret(value);
    registerBasicCredentials(hook.url);
    // A Slack incoming webhook's path is its secret.
    if (hook.type === 'slack') {
      try {
        registerSecret(new URL(hook.url).pathname.replace(/^\/+/, ''));
      } catch {
        // Not a URL: the configuration check reports it.
      }
    }
  }
}
