// The body of a page thread (see page-threads.ts): it fetches and decodes the Shield passes and origin
// days it is given, running ahead of the main thread by at most `credit` pages or batches each.
import { parentPort, workerData } from 'node:worker_threads';
import { createApiClient } from '../api/index.js';
import { toTransferable } from '../errors/transfer.js';
import { createLogger } from '../logger.js';
import { relayRequestMetrics } from '../telemetry/relay.js';
import { shieldPages, streamOriginDay } from './fetch-pages.js';
import type { FromPages, PageThreadData, ToPages } from './page-threads.js';

const port = parentPort;
if (!port) throw new Error('page-thread.js runs as a worker thread (see page-threads.ts)');
const data = workerData as PageThreadData;
const post = (m: FromPages) => port.postMessage(m);
// Log lines go to the main thread's logger, so there is one stream of lines whoever wrote them.
const logger = createLogger({
  level: data.logLevel,
  destination: { write: (line) => post({ type: 'log', line }) },
});
// Request metrics too: the registry is the main thread's.
const metrics = relayRequestMetrics((event) => post({ type: 'metric', event }));
const { client } = createApiClient(data.api, logger, metrics);

/** A job in hand: its stop switch and how many more pages it may send before the main thread takes one. */
class Work {
  readonly controller = new AbortController();
  private credit = data.credit;
  private wake: (() => void) | undefined;

  constructor() {
    this.controller.signal.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Resolves when one more may be sent; false once stopped. */
  async room(): Promise<boolean> {
    while (this.credit === 0 && !this.signal.aborted) await new Promise<void>((r) => (this.wake = r));
    if (this.signal.aborted) return false;
    this.credit--;
    return true;
  }

  ack(): void {
    this.credit++;
    this.wake?.();
  }
}

const work = new Map<number, Work>();

async function run(id: number, job: (w: Work) => Promise<FromPages | null>): Promise<void> {
  const w = new Work();
  work.set(id, w);
  try {
    const last = await job(w);
    if (last && !w.signal.aborted) post(last);
  } catch (err) {
    if (!w.signal.aborted) post({ type: 'error', id, error: toTransferable(err) });
  } finally {
    work.delete(id);
  }
}

port.on('message', (m: ToPages) => {
  switch (m.type) {
    case 'pass':
      return void run(m.id, async (w) => {
        for await (const page of shieldPages(client, m.query, w.signal)) {
          if (!(await w.room())) return null;
          post({ type: 'page', id: m.id, page });
        }
        return { type: 'end', id: m.id, paging: null };
      });
    case 'origin':
      return void run(m.id, async (w) => {
        const paging = await streamOriginDay(
          client,
          m.query,
          async (batch, first) => {
            if (await w.room()) post({ type: 'batch', id: m.id, batch, first });
          },
          () => post({ type: 'restart', id: m.id }),
          w.signal,
        );
        return { type: 'end', id: m.id, paging };
      });
    case 'stop':
      return work.get(m.id)?.controller.abort();
    case 'ack':
      return work.get(m.id)?.ack();
  }
});

post({ type: 'ready' });
