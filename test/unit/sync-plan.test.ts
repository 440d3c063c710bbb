// syncPlan: which day jobs a `sync` asks for, and the option mistakes it refuses before anything runs.
import { describe, expect, it } from 'vitest';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { parseConfig } from '../../src/config/index.js';
import { UsageError } from '../../src/errors/index.js';
import type { Day } from '../../src/time/utc-day.js';

const NOW = Date.parse('2026-11-22T10:30:00Z');
const config = parseConfig({ pullZones: [101], shieldZones: [201] });
const day = (d: string) => d as Day;
const plan = (opts: Parameters<typeof syncPlan>[1]) =>
  syncPlan(config, opts, NOW).days.map((j) => `${j.source} ${j.zone} ${j.day}`);

describe('syncPlan', () => {
  it.each([
    ['today by default', {}, ['origin 101 2026-11-22', 'shield 201 2026-11-22']],
    [
      '--from up to today, oldest day first',
      { from: day('2026-11-21') },
      ['origin 101 2026-11-21', 'shield 201 2026-11-21', 'origin 101 2026-11-22', 'shield 201 2026-11-22'],
    ],
    ['--date today', { date: day('2026-11-22'), source: ['origin' as const] }, ['origin 101 2026-11-22']],
  ])('%s', (_name, opts, jobs) => expect(plan(opts)).toEqual(jobs));

  it.each([
    [{ date: day('2026-11-23') }, '--date 2026-11-23 is in the future (today is 2026-11-22, UTC)'],
    [{ to: day('2026-12-01') }, '--to 2026-12-01 is in the future (today is 2026-11-22, UTC)'],
    [
      { from: day('2026-11-20'), to: day('2026-11-30') },
      '--to 2026-11-30 is in the future (today is 2026-11-22, UTC)',
    ],
    [{ from: day('2026-11-25') }, '--from 2026-11-25 is in the future (today is 2026-11-22, UTC)'],
    [{ from: day('2026-11-21'), to: day('2026-11-20') }, '--from 2026-11-21 is after --to 2026-11-20'],
    [{ zone: [999] }, 'zone 999 is not configured for origin/shield (configured: 101, 201)'],
  ])('refuses %j', (opts, message) => {
    expect(() => syncPlan(config, opts, NOW)).toThrow(UsageError);
    expect(() => syncPlan(config, opts, NOW)).toThrow(message);
  });
});
