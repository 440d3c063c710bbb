// The history process's body (history-process.ts): a HistoryRunner over its own connection to the
// store, answering the worker's calls one message each. It ends with the worker: on `close` after the
// work in hand, or at once when the worker is gone (its channel closed; a SIGKILL of the worker gives no
// chance to say goodbye). Signals are the worker's to act on: a terminal's Ctrl-C, PM2 and systemd send
// them to the whole group, and the worker then closes this process in its turn.
import { performance } from 'node:perf_hooks';
import { toTransferable } from '../errors/transfer.js';
import { createLogger } from '../logger.js';
import { openStore } from '../store/open-store.js';
import type { ArchiveStore } from '../store/store.js';
import type { FromHistory, HistoryChildStart, HistoryMemory, ToHistory } from './history-process.js';
import { HistoryRunner } from './history-runner.js';

if (!process.send) throw new Error("history-process-main.js runs as the worker's child (history-process.ts)");
const post = (m: FromHistory) => {
  if (process.connected) process.send!(m);
};

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
// Busy when the worker goes, it would otherwise finish its flush or merge for no one (idle, it ends anyway).
process.on('disconnect', () => process.exit(0));

/** The worker's clock, running on from the last time it gave (a test's clock may be fixed). */
let base = 0;
let baseAt = 0;
const setNow = (now: number) => ((base = now), (baseAt = performance.now()));
const now = () => base + Math.round(performance.now() - baseAt);

let runner: HistoryRunner | undefined;
let store: ArchiveStore | undefined;
let opened: Promise<HistoryRunner> | undefined;
/** Calls not yet answered: `close` waits for them. */
const inHand = new Set<Promise<unknown>>();

async function open(start: HistoryChildStart): Promise<HistoryRunner> {
  const logger = createLogger({
    level: start.logLevel,
    destination: { write: (line) => post({ type: 'log', line }) },
  }).child({ component: 'history' });
  store = await openStore(
    { ...start.database, backgroundCheckpoints: false },
    { logger, concurrency: 1, cacheMiB: 8, now },
  );
  runner = new HistoryRunner({
    store,
    root: start.root,
    hotDays: start.hotDays,
    originLookbackDays: start.originLookbackDays,
    leaseMs: start.leaseMs,
    owner: start.owner,
    now,
    logger,
  });
  return runner;
}

async function call(m: Extract<ToHistory, { type: 'call' }>): Promise<unknown> {
  const r = await opened!;
  switch (m.op) {
    case 'plan':
      return r.plan();
    case 'flush':
      return r.flush();
    case 'expire':
      return r.expire(m.arg as number);
    case 'thaw':
      return r.thaw(m.arg as Parameters<HistoryRunner['thaw']>[0]);
    case 'compact':
      return r.compact(m.arg as Parameters<HistoryRunner['compact']>[0]);
    case 'memory':
      // maxRSS is in KiB.
      return {
        rssBytes: process.memoryUsage.rss(),
        peakBytes: process.resourceUsage().maxRSS * 1024,
      } satisfies HistoryMemory;
  }
}

async function close(): Promise<void> {
  await Promise.allSettled(inHand);
  await runner?.close();
  await store?.close();
  post({ type: 'closed' });
  process.disconnect();
}

process.on('message', (m: ToHistory) => {
  if (m.type === 'start') {
    setNow(m.now);
    opened = open(m.start);
    return;
  }
  if (m.type === 'close') {
    void close().catch(() => process.exit(1));
    return;
  }
  setNow(m.now);
  const done = call(m).then(
    (value) => post({ type: 'result', id: m.id, value }),
    (err: unknown) => post({ type: 'error', id: m.id, error: toTransferable(err) }),
  );
  inHand.add(done);
  void done.finally(() => inHand.delete(done));
});
