// The body of a page thread (see page-threads.ts): it fetches and decodes the Shield pages of the passes
// it is given, running ahead of the main thread by at most `credit` pages per pass.
import { parentPort, workerData } from 'node:worker_threads';
import { createApiClient } from '../api/index.js';
import { toTransferable } from '../errors/transfer.js';
import { createLogger } from '../logger.js';
import { shieldPages } from './fetch-pages.js';
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
const { client } = createApiClient(data.api, logger);

interface Pass {
  controller: AbortController;
  credit: number;
  wake: (() => void) | undefined;
}
const passes = new Map<number, Pass>();

async function run(id: number, query: Extract<ToPages, { type: 'pass' }>['query']): Promise<void> {
  const pass: Pass = { controller: new AbortController(), credit: data.credit, wake: undefined };
  const { signal } = pass.controller;
  signal.addEventListener('abort', () => pass.wake?.(), { once: true });
  passes.set(id, pass);
  try {
    for await (const page of shieldPages(client, query, signal)) {
      while (pass.credit === 0 && !signal.aborted)
        await new Promise<void>((resolve) => (pass.wake = resolve));
      if (signal.aborted) return;
      pass.credit--;
      post({ type: 'page', id, page });
    }
    post({ type: 'end', id });
  } catch (err) {
    if (!signal.aborted) post({ type: 'error', id, error: toTransferable(err) });
  } finally {
    passes.delete(id);
  }
}

port.on('message', (m: ToPages) => {
  if (m.type === 'pass') void run(m.id, m.query);
  else {
    const pass = passes.get(m.id);
    if (!pass) return;
    if (m.type === 'stop') pass.controller.abort();
    else {
      pass.credit++;
      pass.wake?.();
    }
  }
});
