import { describe, expect, it } from 'vitest';
import { forgottenAt, span, zoneHealth, type HealthRow } from '../../src/status/zone-health.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const row = (day: string, state: string, more: Partial<HealthRow> = {}): HealthRow => ({
  source: 'shield',
  zone_id: 201,
  log_date: day,
  state,
  finished_at: null,
  last_error: null,
  updated_at: 0,
  archived_entries: 0,
  quarantined_entries: 0,
  ...more,
});

const none = () => null;

describe('zoneHealth', () => {
  it('says how fresh a zone is, its oldest open day and when the API forgets it', () => {
    const [z] = zoneHealth(
      [
        row('2026-11-23', 'partial', {
          finished_at: NOW - 60_000,
          archived_entries: 10,
        }),
        row('2026-11-22', 'incomplete', {
          last_error: 'token loop',
          updated_at: NOW - 1000,
          archived_entries: 5,
        }),
        row('2026-11-21', 'complete', {
          finished_at: NOW - 86_400_000,
          archived_entries: 7,
          quarantined_entries: 2,
        }),
      ],
      [{ source: 'shield', zone: 201, lookbackDays: 2 }],
      NOW,
      (source, zone) => (source === 'shield' && zone === 201 ? NOW - 5 * 60_000 : null),
    );
    expect(z).toEqual({
      source: 'shield',
      zone: 201,
      newestEntry: NOW - 5 * 60_000,
      lagMs: 5 * 60_000,
      lastSuccess: NOW - 60_000,
      lastCompleteDay: '2026-11-21',
      oldestOpen: { day: '2026-11-22', state: 'incomplete' },
      // Shield serves today and the two days before: 11-22 is gone at the start of 11-25.
      forgottenAt: Date.parse('2026-11-25T00:00:00Z'),
      archived: 22,
      quarantined: 2,
      lastError: { day: '2026-11-22', error: 'token loop', at: NOW - 1000 },
    });
  });

  it.each([
    ['today is not an open day (it is still filling in)', [row('2026-11-23', 'running')], null],
    ['an expired day is lost, not open', [row('2026-11-22', 'expired')], null],
    ['a day older than the lookback is no longer planned', [row('2026-11-20', 'failed')], null],
    [
      'the oldest of several open days',
      [row('2026-11-22', 'failed'), row('2026-11-21', 'partial')],
      '2026-11-21',
    ],
  ])('%s', (_name, rows, day) => {
    const [z] = zoneHealth(rows, [{ source: 'shield', zone: 201, lookbackDays: 2 }], NOW, none);
    expect(z!.oldestOpen?.day ?? null).toBe(day);
  });

  it('a configured zone without rows is listed, and a zone no longer configured too', () => {
    const zones = zoneHealth(
      [row('2026-11-22', 'complete', { zone_id: 209 })],
      [{ source: 'origin', zone: 101, lookbackDays: 2 }],
      NOW,
      none,
    );
    expect(zones.map((z) => `${z.source} ${z.zone} ${z.lastCompleteDay}`)).toEqual([
      'origin 101 null',
      'shield 209 2026-11-22',
    ]);
  });

  it("the newest entry is the archive's, not the last pass's (a failed re-fetch found none)", () => {
    const [z] = zoneHealth(
      [row('2026-11-22', 'complete', { archived_entries: 40, last_error: 'HTTP 401', updated_at: NOW })],
      [{ source: 'shield', zone: 201, lookbackDays: 2 }],
      NOW,
      () => NOW - 3_600_000,
    );
    expect(z).toMatchObject({ newestEntry: NOW - 3_600_000, lagMs: 3_600_000, archived: 40 });
    const [empty] = zoneHealth([], [{ source: 'shield', zone: 201, lookbackDays: 2 }], NOW, none);
    expect(empty).toMatchObject({ newestEntry: null, lagMs: null });
  });

  it('origin logs publish no window', () => {
    expect(forgottenAt('origin', '2026-11-22')).toBeNull();
  });

  it.each([
    [0, '0m'],
    [59 * 60_000, '59m'],
    [125 * 60_000, '2h05m'],
    [3 * 86_400_000 + 4 * 3_600_000, '3d04h'],
  ])('span(%i) = %s', (ms, text) => {
    expect(span(ms)).toBe(text);
  });
});
