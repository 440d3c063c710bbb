import { describe, expect, it } from 'vitest';
import { missingDays } from '../../src/status/missing-days.js';
import { renderMissing } from '../../src/status/render-missing.js';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const row = (source: string, zone_id: number, log_date: string) => ({ source, zone_id, log_date });

describe('missingDays', () => {
  it.each([
    {
      name: 'every day of the lookback, today included, when the ledger is empty',
      rows: [],
      zones: [{ source: 'shield' as const, zone: 201, lookbackDays: 2 }],
      days: ['shield 201 2026-11-20', 'shield 201 2026-11-21', 'shield 201 2026-11-22'],
    },
    {
      name: 'a day with a row of any state is not missing; another zone or source does not count',
      rows: [
        row('origin', 101, '2026-11-21'),
        row('shield', 101, '2026-11-20'),
        row('origin', 102, '2026-11-20'),
      ],
      zones: [{ source: 'origin' as const, zone: 101, lookbackDays: 2 }],
      days: ['origin 101 2026-11-20', 'origin 101 2026-11-22'],
    },
    {
      name: 'nothing when every day has a row; days before the lookback are not asked for',
      rows: [row('origin', 101, '2026-11-21'), row('origin', 101, '2026-11-22')],
      zones: [{ source: 'origin' as const, zone: 101, lookbackDays: 1 }],
      days: [],
    },
  ])('$name', ({ rows, zones, days }) => {
    expect(missingDays(rows, zones, NOW).map((m) => `${m.source} ${m.zone} ${m.day}`)).toEqual(days);
  });

  it('says when the API forgets a Shield day, and that an origin day is not known', () => {
    const [shield] = missingDays([], [{ source: 'shield', zone: 201, lookbackDays: 0 }], NOW);
    expect(shield!.forgottenAt).toBe(Date.parse('2026-11-25T00:00:00.000Z'));
    const [origin] = missingDays([], [{ source: 'origin', zone: 101, lookbackDays: 0 }], NOW);
    expect(origin!.forgottenAt).toBeNull();
  });
});

describe('renderMissing', () => {
  it('lists the days and one sync per zone over its missing span', () => {
    const text = renderMissing(
      missingDays(
        [row('shield', 201, '2026-11-21')],
        [
          { source: 'shield', zone: 201, lookbackDays: 2 },
          { source: 'origin', zone: 101, lookbackDays: 0 },
        ],
        NOW,
      ),
      NOW,
    );
    expect(text).toContain('shield   201  2026-11-20             12h00m');
    expect(text).toContain('origin   101  2026-11-22            unknown');
    expect(text).toContain('  edgelog sync --source shield --zone 201 --from 2026-11-20 --to 2026-11-22\n');
    expect(text).toContain('  edgelog sync --source origin --zone 101 --date 2026-11-22\n');
  });

  it('says so when nothing is missing', () => {
    expect(renderMissing([], NOW)).toMatch(/^missing: none/);
  });
});
