// The memory of the processes the worker starts (the history process: history-process.ts), read at
// scrape time by asking the child, so `/metrics` shows what the whole worker holds, not its main process
// only. No child running: no series (a scrape never starts one).
import type { HistoryMemory } from '../history/history-process.js';
import { within } from './collect.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

/** How long a scrape waits for a busy child's answer (it answers between its own steps). */
const ANSWER_MS = 2_000;

export function childProcessCollector(
  m: MetricSet,
  history: { memory(): Promise<HistoryMemory | null> },
): Collector {
  return {
    name: 'child-processes',
    async collect() {
      m.childResidentMemory.reset();
      m.childPeakResidentMemory.reset();
      const memory = await within(history.memory(), ANSWER_MS, 'the history process');
      if (memory === null) return;
      m.childResidentMemory.set({ process: 'history' }, memory.rssBytes);
      m.childPeakResidentMemory.set({ process: 'history' }, memory.peakBytes);
    },
  };
}
