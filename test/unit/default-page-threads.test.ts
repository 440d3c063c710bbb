// The default number of page threads: one where a core is left for it beside the main thread and, with
// a history, the history process (page-threads.ts).
import { expect, it } from 'vitest';
import { defaultPageThreads } from '../../src/ingest/page-threads.js';

it.each([
  [1, false, 0],
  [2, false, 1],
  [1, true, 0],
  [2, true, 0],
  [3, true, 1],
  [16, true, 1],
])('%i cores, history %s: %i', (cores, history, want) => {
  expect(defaultPageThreads(history, cores)).toBe(want);
});
