// What `edgelog compact` tells a person (compactSummary): the days another worker's lease kept from
// compaction or from pruning are counted, never passed over in silence.
import { describe, expect, it } from 'vitest';
import { compactSummary } from '../../src/commands/compact.js';
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
