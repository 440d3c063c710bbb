import { describe, expect, it } from 'vitest';
import { missingDays } from '../../src/status/missing-days.js';
import { catchUpCommand, renderMissing } from '../../src/status/render-missing.js';
import { programName } from '../../src/commands/program-name.js';
import { parseDay } from '../../src/time/utc-day.js';

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

const CONFIGURED = [
  { source: 'origin' as const, zone: 101 },
  { source: 'origin' as const, zone: 102 },
  { source: 'shield' as const, zone: 201 },
];
const ctx = { configured: CONFIGURED, program: 'edgelog' };

describe('renderMissing', () => {
  it('lists the days and one sync over every missing zone-day', () => {
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
      ctx,
    );
    expect(text).toContain('shield   201  2026-11-20             12h00m');
    expect(text).toContain('origin   101  2026-11-22            unknown');
    // Before: one `edgelog sync --source … --zone …` line per zone.
    expect(text).toContain(
      'to fetch them now:\n  edgelog sync --zone 101,201 --from 2026-11-20 --to 2026-11-22\n',
    );
    expect(text.match(/ sync /g)).toHaveLength(1);
  });

  it('says so when nothing is missing', () => {
    expect(renderMissing([], NOW, ctx)).toMatch(/^missing: none/);
  });
});

describe('catchUpCommand', () => {
  const m = (source: 'origin' | 'shield', zone: number, day: string) => ({
    source,
    zone,
    day: parseDay(day),
    forgottenAt: null,
  });
  it.each([
    {
      name: 'every configured zone: no --source, no --zone',
      missing: [
        m('origin', 101, '2026-11-21'),
        m('origin', 102, '2026-11-20'),
        m('shield', 201, '2026-11-22'),
      ],
      command: 'edgelog sync --from 2026-11-20 --to 2026-11-22',
    },
    {
      name: 'one source, all its zones: --source only',
      missing: [m('origin', 101, '2026-11-22'), m('origin', 102, '2026-11-22')],
      command: 'edgelog sync --source origin --date 2026-11-22',
    },
    {
      name: 'one zone of a source: both',
      missing: [m('origin', 102, '2026-11-20'), m('origin', 102, '2026-11-21')],
      command: 'edgelog sync --source origin --zone 102 --from 2026-11-20 --to 2026-11-21',
    },
    {
      name: 'both sources, some zones: --zone only',
      missing: [m('shield', 201, '2026-11-22'), m('origin', 101, '2026-11-22')],
      command: 'edgelog sync --zone 101,201 --date 2026-11-22',
    },
  ])('$name', ({ missing, command }) => {
    expect(catchUpCommand(missing, ctx)).toBe(command);
  });

  it('spells the program as it was invoked', () => {
    expect(catchUpCommand([m('shield', 201, '2026-11-22')], { ...ctx, program: 'npx edgelog' })).toBe(
      'npx edgelog sync --source shield --date 2026-11-22',
    );
  });
});

describe('programName', () => {
  it('is `npx edgelog` under npx or npm exec, else `edgelog`', () => {
    expect(programName({ npm_command: 'exec' })).toBe('npx edgelog');
    expect(programName({ npm_command: 'run-script' })).toBe('edgelog');
    expect(programName({})).toBe('edgelog');
  });
});
