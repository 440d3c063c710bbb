// A pass-through HTTP proxy in front of the simulator that counts requests per path, to tell how many
// times a day was fetched (its first page, or its origin answer, was asked for).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimUrls } from '../../../src/simulator/index.js';

export interface CountingProxy {
  /** The simulator's URLs, through the proxy. */
  urls: SimUrls;
  /** Requests per path (without the query), as sent. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function countingProxy(target: SimUrls): Promise<CountingProxy> {
  const upstream = new URL(target.baseUrl);
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const via = (url: string) => {
    const u = new URL(url);
    u.port = String(port);
    return u.href.replace(/\/$/, '');
  };
  return {
    urls: {
      baseUrl: via(target.baseUrl),
      originLogUrl: via(target.originLogUrl),
      videoUrl: via(target.videoUrl),
    },
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
