// Pure: a guardian counter's increase judged over about one snapshot interval (guardian-increase.ts).
import { describe, expect, it } from 'vitest';
import { judgeIncrease, maximumGapMs, minimumGapMs } from '../../src/alerts/guardian-increase.js';

const M = 60_000;
const T = Date.parse('2026-11-22T12:00:00Z');
const at = (ms: number, value: number) => ({ taken_at: new Date(T + ms).toISOString(), value });
const p = { intervalMs: 15 * M, maxIncrease: 100 };
const ms = (n: number) => `${n}ms`;

describe('judgeIncrease', () => {
  it('pairs a snapshot with one at least half an interval before it, at most two intervals', () => {
    expect(minimumGapMs(15 * M)).toBe(7.5 * M);
    expect(maximumGapMs(15 * M)).toBe(30 * M);
  });

  it.each([
    [
      'no snapshot',
      undefined,
      undefined,
      { kind: 'unknown', reason: 'fewer than two snapshots', value: null },
    ],
    [
      'none early enough',
      at(0, 5),
      undefined,
      {
        kind: 'unknown',
        reason: `no snapshot at least ${7.5 * M}ms before the latest (2026-11-22T12:00:00.000Z)`,
        value: null,
      },
    ],
    [
      'one interval, within the bound',
      at(15 * M, 200),
      at(0, 100),
      { kind: 'judged', firing: false, increase: 100 },
    ],
    ['one interval, above it', at(15 * M, 201), at(0, 100), { kind: 'judged', firing: true, increase: 101 }],
    ['half an interval', at(7.5 * M, 500), at(0, 100), { kind: 'judged', firing: true, increase: 400 }],
    ['two intervals', at(30 * M, 150), at(0, 100), { kind: 'judged', firing: false, increase: 50 }],
    ['a reset', at(15 * M, 3), at(0, 100), { kind: 'unknown', value: -97 }],
  ] as const)('%s', (_name, latest, earlier, verdict) => {
    expect(judgeIncrease(latest, earlier, p, ms)).toMatchObject(verdict);
  });

  it('does not judge a gap longer than two intervals (the worker was stopped)', () => {
    expect(judgeIncrease(at(3 * 60 * M, 20_000), at(0, 100), p, ms)).toEqual({
      kind: 'unknown',
      reason:
        `${3 * 60 * M}ms between 2026-11-22T12:00:00.000Z and 2026-11-22T15:00:00.000Z, more than two ` +
        `snapshot intervals (${15 * M}ms); not judged`,
      value: 19_900,
    });
  });
});
