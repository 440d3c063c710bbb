// The Simulator: options, data and faults wired to the HTTP host; the oracle answers from the same data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Day } from '../time/utc-day.js';
import { coerceError } from '../errors/index.js';
import { DataSet } from './data.js';
import { FaultPlan, NO_FAULTS, type FaultDecision } from './faults.js';
import { answer } from './handlers/index.js';
import { hostileReply } from './hostile.js';
import {
  resolveOptions,
  type FaultKind,
  type FaultSpec,
  type ResolvedOptions,
  type SimSource,
  type SimStats,
  type SimUrls,
  type SimulatorOptions,
} from './options.js';
import { json, maintenancePage, problem, statusOnly, type Reply } from './replies.js';
import { matchRoute, PREFIXES } from './routes.js';
import { HttpHost, send, type BodyShape } from './server.js';
import type { SimEntry } from './sim-entry.js';

const SLOW_BODY_CHUNKS = 10;
const SLOW_BODY_DELAY_MS = 200;

function faultReply(fault: FaultSpec, echo: string | undefined): Reply {
  if (fault.kind === 'html') return maintenancePage();
  const reply = statusOnly(Number(fault.kind), echo);
  return fault.kind === '429' ? { ...reply, headers: { 'retry-after': fault.retryAfter ?? '1' } } : reply;
}

/** The AccessKey header as one string (repeated headers joined), or undefined without one. */
function headerKey(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export class Simulator {
  readonly accessKey: string;
  private readonly opts: ResolvedOptions;
  private readonly data: DataSet;
  private readonly faults: FaultPlan;
  private readonly host: HttpHost;
  private readonly counters: SimStats = { requests: 0, entriesServed: 0, faults: {} };

  constructor(opts: SimulatorOptions = {}) {
    this.opts = resolveOptions(opts);
    this.accessKey = this.opts.accessKey;
    this.data = new DataSet(this.opts);
    this.faults = new FaultPlan(opts.faults ?? [], this.opts.seed);
    this.host = new HttpHost((req, res) => this.onRequest(req, res));
  }

  /** Listens on loopback (by default a free port); the three hosts are path prefixes of one server. */
  async listen(port = 0, host = '127.0.0.1'): Promise<SimUrls> {
    const bound = await this.host.listen(port, host);
    const root = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
    return {
      baseUrl: `${root}${PREFIXES.api}`,
      originLogUrl: `${root}${PREFIXES.origin}`,
      videoUrl: `${root}${PREFIXES.video}`,
    };
  }

  /** Closes the server and every open socket; pending slow answers are dropped. */
  close(): Promise<void> {
    return this.host.close();
  }

  /** A snapshot of the counters. */
  get stats(): SimStats {
    return { ...this.counters, faults: { ...this.counters.faults } };
  }

  /** Replaces the faults; their counters start afresh. */
  setFaults(faults: FaultSpec[]): void {
    this.faults.set(faults);
  }

  /**
   * ORACLE: exactly the entries the API serves for a zone-day at instant `at`, in serving order. It
   * applies the clock (today fills in; future days are empty) but not the Shield retention window, so
   * it still tells what a day held after the API stopped serving it. Unknown zones have no entries.
   */
  entries(source: SimSource, zone: number, day: Day, at: number = this.opts.now()): SimEntry[] {
    return this.data.entries(source, zone, day, at);
  }

  count(source: SimSource, zone: number, day: Day, at: number = this.opts.now()): number {
    return this.data.count(source, zone, day, at);
  }

  private countFault(kind: FaultKind): void {
    this.counters.faults[kind] = (this.counters.faults[kind] ?? 0) + 1;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counters.requests++;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = matchRoute(q < 0 ? url : url.slice(0, q));
    const decision = match.ok && req.method === 'GET' ? this.faults.decide(match.operation, url) : NO_FAULTS;
    const echo = this.opts.echoKey ? headerKey(req.headers.accesskey) : undefined;
    if (decision.delayMs > 0) this.countFault('slow');
    if (!(await this.host.wait(this.opts.latencyMs + decision.delayMs))) return;
    if (decision.answer) {
      this.countFault(decision.answer.kind);
      if (decision.answer.kind === 'reset') {
        req.socket.destroy();
        return;
      }
    }
    let reply: Reply;
    try {
      if (decision.answer) reply = faultReply(decision.answer, echo);
      else if (req.method !== 'GET') reply = statusOnly(405, echo);
      else if (!match.ok)
        reply =
          match.status === 400 ? problem(400, match.detail, match.instance, echo) : statusOnly(404, echo);
      else {
        const ctx = {
          opts: this.opts,
          data: this.data,
          now: this.opts.now(),
          instance: match.instance,
          query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
          paging: decision.paging,
          echo,
          countFault: (kind: FaultKind) => this.countFault(kind),
        };
        reply = answer(ctx, match.route, req.headers.accesskey);
      }
    } catch (err) {
      // A simulator bug: say so in the body, where a failing test shows it.
      reply = json(
        500,
        JSON.stringify({ statusCode: 500, detail: `simulator error: ${coerceError(err).message}` }),
      );
    }
    if (this.opts.hostileText) reply = hostileReply(reply);
    const complete = await send(res, reply, this.bodyShape(decision));
    if (complete && !decision.truncate) this.counters.entriesServed += reply.entries ?? 0;
  }

  /** The body faults of a decision, counted as they are applied. */
  private bodyShape(decision: FaultDecision): BodyShape {
    const { truncate, gzip, slowBody } = decision;
    if (!truncate && !gzip && !slowBody) return {};
    if (truncate) this.countFault('truncate');
    if (gzip) this.countFault('gzip');
    if (slowBody) this.countFault('slow-body');
    return {
      truncate: truncate !== undefined,
      gzip: gzip !== undefined,
      ...(slowBody && {
        pieces: {
          count: slowBody.chunks ?? SLOW_BODY_CHUNKS,
          delayMs: slowBody.delayMs ?? SLOW_BODY_DELAY_MS,
          wait: (ms: number) => this.host.wait(ms),
        },
      }),
    };
  }
}
