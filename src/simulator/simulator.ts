// The Simulator: options, data and faults wired to the HTTP host; the oracle answers from the same data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Day } from '../time/utc-day.js';
import { coerceError } from '../errors/index.js';
import { DataSet } from './data.js';
import { FaultPlan, type FaultDecision } from './faults.js';
import { answer } from './handlers/index.js';
import {
  resolveOptions,
  type FaultKind,
  type FaultSpec,
  type ResolvedOptions,
  type SimEntry,
  type SimSource,
  type SimStats,
  type SimUrls,
  type SimulatorOptions,
} from './options.js';
import { json, problem, statusOnly, type Reply } from './replies.js';
import { matchRoute, PREFIXES } from './routes.js';
import { HttpHost, send } from './server.js';

const NO_FAULTS: FaultDecision = { answer: undefined, delayMs: 0, truncate: undefined, paging: [] };

function faultReply(fault: FaultSpec): Reply {
  const reply = statusOnly(Number(fault.kind));
  return fault.kind === '429' ? { ...reply, headers: { 'retry-after': fault.retryAfter ?? '1' } } : reply;
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
      if (decision.answer) reply = faultReply(decision.answer);
      else if (req.method !== 'GET') reply = statusOnly(405);
      else if (!match.ok)
        reply = match.status === 400 ? problem(400, match.detail, match.instance) : statusOnly(404);
      else {
        const ctx = {
          opts: this.opts,
          data: this.data,
          now: this.opts.now(),
          instance: match.instance,
          query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
          paging: decision.paging,
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
    if (decision.truncate) this.countFault('truncate');
    const complete = await send(res, reply, decision.truncate !== undefined);
    if (complete && !decision.truncate) this.counters.entriesServed += reply.entries ?? 0;
  }
}
