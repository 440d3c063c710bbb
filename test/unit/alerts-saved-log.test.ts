// The log line of a saved evaluation (src/alerts/saved-log.ts), shared by zone and sql rules: the notice
// sent, or a change a silence held said once when the state moves, and nothing while it stays put.
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { logSaved } from '../../src/alerts/saved-log.js';
import type { AlertState } from '../../src/alerts/state-machine.js';
import { createLogger } from '../../src/logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ destination }) };
}

const state = (s: AlertState['state']): AlertState => ({
  state: s,
  since: 1,
  lastNotifiedAt: null,
  firstEvaluatedAt: 0,
});

it('says which notice went to which hooks', () => {
  const { lines, logger } = capture();
  logSaved(logger, { rule: 'r', zone: 7 }, ['ops'], 'firing', [], state('firing'), state('pending'));
  expect(lines).toMatchObject([
    { msg: 'alert firing', rule: 'r', zone: 7, status: 'firing', hooks: ['ops'] },
  ]);
});

it('says once that a silence held a change, and nothing while the state stays', () => {
  const { lines, logger } = capture();
  logSaved(logger, { rule: 'r', series: 'k' }, ['ops'], null, ['s1'], state('firing'), state('pending'));
  logSaved(logger, { rule: 'r', series: 'k' }, ['ops'], null, ['s1'], state('firing'), state('firing'));
  logSaved(logger, { rule: 'r', series: 'k' }, ['ops'], null, [], state('resolved'), state('firing'));
  expect(lines).toMatchObject([
    {
      msg: 'alert changed while silenced: its notice is held',
      series: 'k',
      state: 'firing',
      silences: ['s1'],
    },
  ]);
  expect(lines).toHaveLength(1);
});
