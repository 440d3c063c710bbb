// HTTP plumbing: one loopback server, its open sockets (so close() is prompt), abortable waits, and
// writing a Reply — whole, streamed with backpressure, or shaped by a body fault (cut in half, gzipped,
// dribbled out in pieces).
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { setMaxListeners } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { Reply } from './replies.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export class HttpHost {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private closing = closer();

  constructor(private readonly listener: RequestListener) {}

  /** Starts listening; resolves with the bound port. */
  async listen(port: number, host: string): Promise<number> {
    if (this.server) throw new Error('the simulator is already listening');
    const server = createServer((req, res) => {
      res.on('error', () => undefined); // a client that went away is not the simulator's problem
      void this.listener(req, res);
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  /** Waits `ms`; resolves false instead when the server closes meanwhile. */
  async wait(ms: number): Promise<boolean> {
    if (ms <= 0) return true;
    try {
      await sleep(ms, undefined, { signal: this.closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  /** Stops listening, ends pending waits and destroys every open socket. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closing.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.closing = closer();
  }
}

/** Every pending wait listens on this signal: any number of them is expected, not a leak. */
function closer(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** How a reply's body goes out besides as the handler made it (the body faults). */
export interface BodyShape {
  /** Only the first half of the body (after compression), with a Content-Length that matches the cut. */
  truncate?: boolean;
  /** The body gzip-compressed, with `content-encoding: gzip`. */
  gzip?: boolean;
  /** Headers at once, then the body in `count` pieces with a wait of `delayMs` before each but the first. */
  pieces?: { count: number; delayMs: number; wait: (ms: number) => Promise<boolean> };
}

/** The body as bytes, shaped by the faults that change its bytes. */
function bodyBytes(reply: Reply, shape: BodyShape): Buffer {
  const text = typeof reply.body === 'string' ? reply.body : [...reply.body].join('');
  let body = Buffer.from(text);
  if (shape.gzip) body = gzipSync(body);
  if (shape.truncate) body = body.subarray(0, Math.floor(body.length / 2));
  return body;
}

/** Writes `body` in `count` pieces; false when the connection went away or the server closed. */
async function writePieces(res: ServerResponse, body: Buffer, pieces: NonNullable<BodyShape['pieces']>) {
  const size = Math.ceil(body.length / pieces.count);
  res.flushHeaders();
  for (let i = 0; i < pieces.count; i++) {
    if (i > 0 && !(await pieces.wait(pieces.delayMs))) return false;
    if (res.destroyed) return false;
    const piece = body.subarray(i * size, (i + 1) * size);
    if (piece.length > 0 && !res.write(piece) && !(await drained(res))) return false;
  }
  return true;
}

/**
 * Writes a reply; resolves true when all of it was handed to the connection. Without a shape a string
 * body goes out whole and an iterable one is streamed with backpressure.
 */
export async function send(res: ServerResponse, reply: Reply, shape: BodyShape = {}): Promise<boolean> {
  if (res.destroyed) return false;
  const headers: OutgoingHttpHeaders = { 'content-type': reply.contentType, ...reply.headers };
  try {
    if (typeof reply.body === 'string' || shape.truncate || shape.gzip || shape.pieces) {
      const body = bodyBytes(reply, shape);
      headers['content-length'] = body.length;
      if (shape.gzip) headers['content-encoding'] = 'gzip';
      res.writeHead(reply.status, headers);
      if (shape.pieces) {
        if (!(await writePieces(res, body, shape.pieces))) return false;
        res.end();
      } else res.end(body);
    } else {
      res.writeHead(reply.status, headers);
      for (const chunk of reply.body) {
        if (res.destroyed) return false;
        if (!res.write(chunk) && !(await drained(res))) return false;
      }
      res.end();
    }
    await finished(res);
    return true;
  } catch {
    return false;
  }
}
