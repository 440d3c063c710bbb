// `edgelog serve`'s HTTP server (node:http): the pages, the JSON API and the login, each request checked
// in this order — the Host header (a loopback console answers only loopback names), the method, the
// token (when there is one) — and every failure answered as problem details.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import { authorize, authorizeWrite, csrfValue, sameSecret, SESSION_COOKIE, sessionValue } from './access.js';
import { API_ROUTES, WRITE_ROUTES, type ApiContext } from './api-routes.js';
import { DOWNLOAD_ROUTES, sendDownload } from './downloads.js';
import { isLoopback, isLoopbackHostHeader, type ListenAddress } from './listen-address.js';
import { ConsoleRequestError } from './request-error.js';
import { problemOf, SECURITY_HEADERS, send, sendJsonText, sendProblem } from './responses.js';
import type { Asset } from './static-assets.js';

export interface ConsoleServerOptions {
  listen: ListenAddress;
  /** Required off loopback (access.ts checkStartup); null: no token. */
  token: string | null;
  api: ApiContext;
  assets: ReadonlyMap<string, Asset>;
  logger: Logger;
  /** The session cookie is marked Secure (the console is reached through TLS). @defaultValue false */
  secureCookie?: boolean;
}

export interface ConsoleServer {
  /** The address it listens on, e.g. http://127.0.0.1:8470/ (the real port when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

/** The login form's body is one short field; a silence's is a few. */
const MAX_FORM_BYTES = 4096;

export async function startConsoleServer(opts: ConsoleServerOptions): Promise<ConsoleServer> {
  const loopbackOnly = isLoopback(opts.listen.host) && opts.token === null;
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const problem = problemOf(err);
      if (problem.status >= 500) opts.logger.error({ err, path: pathOf(req) }, 'console request failed');
      if (res.headersSent) res.destroy();
      else sendProblem(res, problem, problem.status === 405 ? { Allow: 'GET, HEAD' } : {});
    });
  });
  // A slow client cannot hold a connection open forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (loopbackOnly && !isLoopbackHostHeader(req.headers.host))
      throw new ConsoleRequestError(
        421,
        'misdirected request',
        'this console answers only localhost and 127.0.0.1',
      );
    const path = pathOf(req);
    if (path === '/api/v1/session') {
      if (req.method === 'POST') return login(req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new ConsoleRequestError(405, 'method not allowed', 'GET the session, or POST the login form');
      // The page's CSRF token for its writes (null: this console has no token, and makes no writes).
      authorize(req, opts.token);
      return sendJsonText(res, JSON.stringify({ csrf: opts.token === null ? null : csrfValue(opts.token) }));
    }
    const write = WRITE_ROUTES[path];
    if (write !== undefined && req.method === 'POST') {
      authorizeWrite(req, opts.token);
      let parsed: unknown;
      try {
        parsed = JSON.parse(await body(req));
      } catch (err) {
        if (err instanceof ConsoleRequestError) throw err;
        throw new ConsoleRequestError(400, 'bad request', 'the body is not JSON');
      }
      return sendJsonText(res, JSON.stringify(await write(parsed, opts.api)), 201);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new ConsoleRequestError(405, 'method not allowed', 'the console only reads: GET');
    // Browsers ask for it unbidden; the console has none.
    if (path === '/favicon.ico') return void res.writeHead(204, SECURITY_HEADERS).end();
    const asset = opts.assets.get(path);
    if (asset !== undefined) {
      if (!asset.public) {
        try {
          authorize(req, opts.token);
        } catch (err) {
          // A page asked for by a person: to the login form.
          if (asset.type.startsWith('text/html'))
            return void res.writeHead(303, { Location: '/login.html' }).end();
          throw err;
        }
      }
      return send(res, 200, asset.type, asset.body, { 'Cache-Control': 'no-cache' });
    }
    const download = DOWNLOAD_ROUTES[path];
    if (download !== undefined) {
      authorize(req, opts.token);
      const now = opts.api.now();
      const d = download(new URL(req.url ?? '/', 'http://console').searchParams, now);
      const bounds = { limit: opts.api.downloadLimit, timeoutMs: opts.api.bounds.timeoutMs };
      return sendDownload(res, opts.api.queries, d, bounds, now);
    }
    const route = API_ROUTES[path];
    if (route === undefined)
      throw new ConsoleRequestError(404, 'not found', `no such page or API: ${path.slice(0, 100)}`);
    authorize(req, opts.token);
    const params = new URL(req.url ?? '/', 'http://console').searchParams;
    sendJsonText(res, await route(params, opts.api));
  }

  /** POST token=… (the login form): the session cookie, if the token is right and the form is ours. */
  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (opts.token === null) return void res.writeHead(303, { Location: '/' }).end();
    // A form posted from another site is refused (the browser names the page's origin).
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      origin !== `http://${req.headers.host}` &&
      origin !== `https://${req.headers.host}`
    )
      throw new ConsoleRequestError(403, 'forbidden', 'a login form from another site');
    const form = new URLSearchParams(await body(req));
    if (!sameSecret(form.get('token') ?? '', opts.token))
      throw new ConsoleRequestError(401, 'unauthorized', 'wrong token');
    const cookie = [
      `${SESSION_COOKIE}=${sessionValue(opts.token)}`,
      'HttpOnly',
      'SameSite=Strict',
      'Path=/',
      ...(opts.secureCookie ? ['Secure'] : []),
    ].join('; ');
    res.writeHead(303, { Location: '/', 'Set-Cookie': cookie }).end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.listen.port, opts.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

async function body(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new ConsoleRequestError(413, 'too large', 'the form is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
