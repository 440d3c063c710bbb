// Pure: where a hook's request goes and the credentials it carries. Credentials in the hook's URL
// (`https://user:password@host/…`) are sent as Basic authorization and taken out of the URL, as a
// browser would; `bearerToken` is sent as Bearer authorization; `headers` are sent as they are. The
// configuration allows one of the three ways of giving an Authorization header (config/relations.ts).
import type { HookConfig } from '../config/index.js';

export interface HookRequest {
  /** The hook's URL without credentials. */
  url: URL;
  /** The hook's own headers: its authorization and `headers`. */
  headers: Record<string, string>;
  /** Every credential the request carries, in each form it is sent in: to be kept out of any output. */
  secrets: string[];
}

export function hookRequest(hook: Pick<HookConfig, 'url' | 'headers' | 'bearerToken'>): HookRequest {
  const url = new URL(hook.url);
  const headers: Record<string, string> = { ...hook.headers };
  const secrets = Object.values(headers);
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    const basic = Buffer.from(`${user}:${password}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
    secrets.push(password, basic);
    url.username = '';
    url.password = '';
  }
  if (hook.bearerToken !== undefined) {
    headers.authorization = `Bearer ${hook.bearerToken}`;
    secrets.push(hook.bearerToken);
  }
  return { url, headers, secrets };
}
