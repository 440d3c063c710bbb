// A webhook receiver on loopback that records what it is sent, and can be "down" (answers 503) or
// "hanging" (accepts the request and never answers, like a receiver stuck behind a dead backend).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests refused while down. */
  refused: number;
  down: boolean;
  /** While true, requests are read in full and held open without an answer. */
  hanging: boolean;
  /** Requests held without an answer (they stay open until the sender gives up or close()). */
  held: Received[];
  close(): Promise<void>;
}

export async function startReceiver(opts: { hanging?: boolean } = {}): Promise<Receiver> {
  const state: Omit<Receiver, 'url' | 'close'> = {
    received: [],
    refused: 0,
    down: false,
    hanging: opts.hanging ?? false,
    held: [],
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const got = { headers: req.headers, body, json: JSON.parse(body) as Record<string, unknown> };
      if (state.hanging) {
        state.held.push(got);
        return; // never answered
      }
      if (state.down) {
        state.refused++;
        res.writeHead(503).end('down');
        return;
      }
      state.received.push(got);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
