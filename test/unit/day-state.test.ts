import { describe, expect, it } from 'vitest';
import { coveredUntil, finishedState } from '../../src/ingest/day-state.js';
import type { Day } from '../../src/time/utc-day.js';

const day = '2026-11-21' as Day;
const end = Date.parse('2026-11-22T00:00:00Z');
const HOUR = 3_600_000;

describe('finishedState / coveredUntil', () => {
  it.each([
    ['pass during the day', end - 5 * HOUR, HOUR, 'partial', end - 5 * HOUR],
    ['pass just after midnight, within the finalise delay', end + 10 * 60_000, HOUR, 'partial', end],
    ['pass exactly at end + delay', end + HOUR, HOUR, 'complete', end],
    ['pass days later', end + 48 * HOUR, HOUR, 'complete', end],
    ['no delay: first pass after midnight completes', end, 0, 'complete', end],
  ] as const)('%s', (_name, started, delay, state, covered) => {
    expect(finishedState(day, started, delay)).toBe(state);
    expect(coveredUntil(day, started)).toBe(covered);
  });
});
