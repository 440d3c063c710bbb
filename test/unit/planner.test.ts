import { describe, expect, it } from 'vitest';
import { planDays } from '../../src/queue/planner.js';
import type { DayState } from '../../src/store/sqlite/ledger.js';

const NOW = Date.parse('2026-11-22T10:30:00Z');
const plan = (lookbackDays: number, states: Record<string, DayState> = {}) =>
  planDays({ now: NOW, lookbackDays, states: new Map(Object.entries(states)) }).map(
    (p) => `${p.day} ${p.reason}`,
  );

describe('planDays', () => {
  it.each([
    ['no lookback: today only', 0, {}, ['2026-11-22 refresh']],
    [
      'empty ledger: every day of the window, oldest first',
      2,
      {},
      ['2026-11-20 catch-up', '2026-11-21 catch-up', '2026-11-22 refresh'],
    ],
    [
      'complete and expired days are skipped',
      2,
      { '2026-11-20': 'complete', '2026-11-21': 'expired' },
      ['2026-11-22 refresh'],
    ],
    [
      'partial (yesterday not yet final), failed and running days are fetched again',
      3,
      { '2026-11-19': 'failed', '2026-11-20': 'running', '2026-11-21': 'partial' },
      ['2026-11-19 catch-up', '2026-11-20 catch-up', '2026-11-21 catch-up', '2026-11-22 refresh'],
    ],
    [
      'an incomplete day (paging broke off) is fetched again while the API holds it',
      2,
      { '2026-11-20': 'incomplete', '2026-11-21': 'complete' },
      ['2026-11-20 catch-up', '2026-11-22 refresh'],
    ],
    ['today is refreshed even when complete', 0, { '2026-11-22': 'complete' }, ['2026-11-22 refresh']],
  ] as const)('%s', (_name, lookback, states, expected) => {
    expect(plan(lookback, states)).toEqual(expected);
  });
});
