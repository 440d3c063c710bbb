// Pure: one day's ledger rows of two archives merged into the archive that now holds both's entries
// (migrate-store), by the rules every pass keeps (ledger-rules.ts).
import { describe, expect, it } from 'vitest';
import { mergeDay, stateAfter } from '../../src/store/ledger-rules.js';
import type { DayState, LedgerRow } from '../../src/store/ledger-types.js';

const day = (over: Partial<LedgerRow>): LedgerRow => ({
  source: 'shield',
  zone_id: 201,
  log_date: '2026-11-21',
  state: 'complete',
  pass_started_at: 100,
  next_token: null,
  pages: 1,
  entries: 3,
  new_entries: 3,
  malformed: 0,
  quarantined: 0,
  first_ts: 10,
  last_ts: 20,
  archived_entries: 3,
  quarantined_entries: 0,
  covered_until: 5_000,
  last_error: null,
  lease_owner: null,
  lease_until: null,
  updated_at: 1_000,
  finished_at: 1_000,
  retention_removed_at: null,
  ...over,
});

describe('stateAfter', () => {
  const states: DayState[] = ['running', 'partial', 'complete', 'incomplete', 'failed', 'expired'];
  it.each(states)('after %s: complete stays, partial stays but for a finish or expired', (current) => {
    for (const next of states) {
      const kept =
        current === 'complete' ||
        (current === 'partial' && !['partial', 'complete', 'expired'].includes(next));
      expect({ current, next, state: stateAfter(current, next) }).toEqual({
        current,
        next,
        state: kept ? current : next,
      });
    }
  });
});

describe('mergeDay', () => {
  const held = { archived: 3, quarantined: 0 };

  it("an expired day of the target written later: complete, counted, with the later pass's error", () => {
    const target = day({
      state: 'expired',
      pages: 0,
      entries: 0,
      new_entries: 0,
      archived_entries: 0,
      covered_until: null,
      finished_at: null,
      last_error: 'outside the window',
      updated_at: 9_000,
    });
    expect(mergeDay(target, day({}), held)).toEqual({
      ...target,
      state: 'complete',
      archived_entries: 3,
      covered_until: 5_000,
      finished_at: 1_000,
    });
  });

  it.each([
    ['source expired later over a complete target', 'complete', 1_000, 'expired', 2_000, 'complete'],
    ['target partial later over a complete source', 'partial', 2_000, 'complete', 1_000, 'complete'],
    ['target expired later over a partial source', 'expired', 2_000, 'partial', 1_000, 'expired'],
    ['target failed later over a partial source', 'failed', 2_000, 'partial', 1_000, 'partial'],
    ['source incomplete later over a failed target', 'failed', 1_000, 'incomplete', 2_000, 'incomplete'],
    ['a tie: the target pass is the later one', 'running', 1_000, 'partial', 1_000, 'partial'],
  ] as const)('%s', (_name, targetState, targetAt, sourceState, sourceAt, state) => {
    const target = day({ state: targetState, updated_at: targetAt, pages: 7 });
    const source = day({ state: sourceState, updated_at: sourceAt, pages: 9 });
    const merged = mergeDay(target, source, held);
    expect(merged.state).toBe(state);
    // The pass shown is the later row's (the target's on a tie).
    expect(merged.pages).toBe(targetAt >= sourceAt ? 7 : 9);
    expect(merged.updated_at).toBe(Math.max(targetAt, sourceAt));
  });

  it("a day the target lacks: the source's row, its lease not copied, counting the target's rows", () => {
    const source = day({ lease_owner: 'sqlite-worker', lease_until: 99_999 });
    expect(mergeDay(undefined, source, { archived: 4, quarantined: 1 })).toEqual({
      ...source,
      lease_owner: null,
      lease_until: null,
      archived_entries: 4,
      quarantined_entries: 1,
    });
  });

  it('keeps the larger recorded total when retention removed rows of the day', () => {
    const target = day({ archived_entries: 10, quarantined_entries: 2, updated_at: 2_000 });
    const source = day({ archived_entries: 8, quarantined_entries: 5 });
    expect(mergeDay(target, source, { archived: 0, quarantined: 0 })).toMatchObject({
      archived_entries: 10,
      quarantined_entries: 5,
    });
  });

  it('takes the larger covered_until and finished_at of the two, whichever row is later', () => {
    const target = day({ covered_until: 9_000, finished_at: null, updated_at: 500 });
    const source = day({ covered_until: null, finished_at: 700, updated_at: 800 });
    expect(mergeDay(target, source, held)).toMatchObject({ covered_until: 9_000, finished_at: 700 });
  });
});
