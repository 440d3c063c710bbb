// Sends one notice (or a group's) to one hook over HTTP. Any non-2xx answer or network failure throws, so the
// delivery queue retries it. The hook's timeout bounds a receiver that never answers; the caller's
// signal ends the request sooner (shutdown).
import { request, type Dispatcher } from 'undici';
import type { HookConfig } from '../config/index.js';
import { HttpStatusError, NetworkError } from '../errors/index.js';
import { registerSecret } from '../redact.js';
import { noticeRequest, single, type Delivery } from './notice-request.js';
import type { Notice } from './payload.js';
import type { RenderText } from './templates.js';

export interface DeliverOptions {
  /** @defaultValue undici's global dispatcher */
  dispatcher?: Dispatcher | undefined;
  /** Aborts the request (it then throws a NetworkError). @defaultValue none: only `hook.timeout` */
  signal?: AbortSignal | undefined;
  /** The hook's template (templates.ts). @defaultValue the default text */
  render?: RenderText | undefined;
}

export async function deliver(
  hookName: string,
  hook: HookConfig,
  what: Notice | Delivery,
  { dispatcher, signal, render }: DeliverOptions = {},
): Promise<number> {
  const delivery = 'notices' in what ? what : single(what);
  const { url, headers, body, secrets, display } = noticeRequest(hookName, hook, delivery, render);
  // Where a hook's credentials are first used (also by `alerts test`, which starts no engine).
  for (const secret of secrets) registerSecret(secret);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: 'POST',
      headers,
      body,
      ...(dispatcher ? { dispatcher } : {}),
      headersTimeout: hook.timeout,
      bodyTimeout: hook.timeout,
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(hook.timeout)])
        : AbortSignal.timeout(hook.timeout),
    });
  } catch (cause) {
    throw new NetworkError(`hook ${hookName} (${display}): ${(cause as Error).message}`, {
      retryable: true,
      cause,
    });
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode < 200 || res.statusCode > 299) {
    throw new HttpStatusError(`hook ${hookName} (${display}) answered HTTP ${res.statusCode}`, {
      status: res.statusCode,
      body: text.slice(0, 500),
      context: { url: display },
    });
  }
  return res.statusCode;
}
