// What `edgelog compact` tells a person (compactSummary): the days another worker's lease kept from
// compaction or from pruning are counted, never passed over in silence; and its exit status
// (compactFailed): 1 while --verify finds the archive with lost entries, whichever run counted them.
import { describe, expect, it } from 'vitest';
import { compactFailed, compactSummary } from '../../src/commands/compact.js';
import type { DayFinding, VerifyResult } from '../../src/history/verify.js';
import { emptyPassSummary } from '../../src/history/history-pass.js';

const base = emptyPassSummary();

describe('compactSummary', () => {
  it('says nothing of leases when no day was held', () => {
    expect(compactSummary(base, 10)).toBe('nothing to compact: every settled zone-day is in history\n');
  });

  it('counts the days held from compaction and from pruning, each in its own line', () => {
    expect(compactSummary({ ...base, busy: 2, pruneBusy: 1 }, 10).split('\n')).toEqual([
      'nothing to compact: every settled zone-day is in history',
      '2 zone-days were being compacted by another worker',
      '1 zone-day is not pruned yet: another worker holds its lease (a later compact prunes it)',
      '',
    ]);
    expect(compactSummary({ ...base, pruneBusy: 3 }, 10)).toMatch(
      /^3 zone-days are not pruned yet: another worker holds their lease \(a later compact prunes them\)$/m,
    );
  });
});

describe('compactFailed', () => {
  const clean: VerifyResult = { days: 4, parts: 4, findings: [], lost: 0, lostInAll: 0 };
  const left = { outcome: 'left', lost: 0 } as DayFinding;
  const failed: typeof base = {
    ...base,
    failed: [{ step: 'compact', source: 'origin', zone: 1, day: '2026-11-20', error: 'disk full' }],
  };
  it.each<[string, typeof base, VerifyResult | null, boolean]>([
    ['a clean pass, no --verify', base, null, false],
    ['a clean --verify', base, clean, false],
    ['entries counted lost by this run', base, { ...clean, lost: 40, lostInAll: 40 }, true],
    ['entries counted lost by an earlier run', base, { ...clean, lostInAll: 40 }, true],
    // Counted by this run while its record was not written (the day's lease lost meanwhile).
    ['entries counted lost by this run, not recorded', base, { ...clean, lost: 40 }, true],
    ['a finding left as it is', base, { ...clean, findings: [left] }, true],
    ['a day that failed', failed, clean, true],
  ])('%s', (_name, summary, verified, expected) => {
    expect(compactFailed(summary, verified)).toBe(expected);
  });
});
