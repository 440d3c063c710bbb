// The HTTP endpoint of `edgelog run`: GET /metrics (Prometheus text format), /healthz (the process is
// up) and /readyz (ready to work, see readiness.ts), with JSON bodies that say what is wrong.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EdgelogError, coerceError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { Readiness } from './readiness.js';

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port (see MetricsServer.port). */
  port: number;
  /** Renders the metrics (collect.ts scrape). */
  metrics: () => Promise<string>;
  /** Content-Type of the metrics (the registry's). */
  contentType: string;
  readiness: () => Promise<Readiness>;
  logger: Logger;
}

export interface MetricsServer {
  host: string;
  /** The port it listens on (the one picked, when asked for 0). */
  port: number;
  /** e.g. `http://127.0.0.1:9469` */
  url: string;
  /** Stops listening and drops open connections (a scraper's keep-alive does not hold up shutdown). */
  close(): Promise<void>;
}

const PATHS = ['/metrics', '/healthz', '/readyz'];

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

async function route(req: IncomingMessage, res: ServerResponse, opts: MetricsServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (!PATHS.includes(path)) {
    return sendJson(res, 404, { error: `not found: ${path} (edgelog serves ${PATHS.join(', ')})` });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendJson(res, 405, { error: `method ${req.method} not allowed: use GET` });
  }
  if (path === '/healthz') {
    return sendJson(res, 200, {
      status: 'ok',
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
    });
  }
  if (path === '/readyz') {
    const r = await opts.readiness();
    return sendJson(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', checks: r.checks });
  }
  const text = await opts.metrics();
  res.writeHead(200, { 'content-type': opts.contentType, 'cache-control': 'no-store' });
  res.end(text);
}

function listenError(err: NodeJS.ErrnoException, where: string): EdgelogError {
  const why =
    err.code === 'EADDRINUSE'
      ? 'the address is in use (another edgelog run?)'
      : err.code === 'EADDRNOTAVAIL'
        ? 'no interface of this machine has that address'
        : err.message;
  return new EdgelogError(
    `cannot serve metrics on ${where}: ${why}: set metrics.listen to a free "host:port", or null to turn it off`,
    { cause: err },
  );
}

export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const log = opts.logger.child({ component: 'metrics' });
  const server = createServer((req, res) => {
    route(req, res, opts).catch((err: unknown) => {
      const message = coerceError(err).message;
      log.error({ err: message, url: req.url }, 'metrics request failed');
      if (!res.headersSent) sendJson(res, 500, { error: message });
      else res.destroy();
    });
  });
  const hostPart = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err, `${hostPart}:${opts.port}`)));
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostPart}:${port}`;
  log.info({ url }, 'serving /metrics, /healthz and /readyz');
  return {
    host: opts.host,
    port,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
