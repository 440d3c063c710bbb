import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { planSchedulers, wantedSchedulers, type ExistingScheduler } from '../../src/queue/schedules.js';

const config = parseConfig({
  pullZones: [101, { id: 102, name: 'b' }],
  shieldZones: [201],
  schedule: { refreshEvery: '1h', guardianEvery: '15m' },
});

const asExisting = (w: ReturnType<typeof wantedSchedulers>[number]): ExistingScheduler => ({
  key: w.id,
  name: w.template.name,
  ...('every' in w.repeat ? { every: w.repeat.every } : { pattern: w.repeat.pattern, tz: w.repeat.tz }),
  template: { data: w.template.data },
});

describe('wantedSchedulers', () => {
  it('has one scheduler per (source, zone) plus maintenance', () => {
    expect(wantedSchedulers(config).map((w) => w.id)).toEqual([
      'origin-101',
      'origin-102',
      'shield-201',
      'guardian-201',
      'maintenance',
    ]);
    expect(wantedSchedulers(config).find((w) => w.id === 'guardian-201')?.repeat).toEqual({ every: 900_000 });
  });
});

describe('planSchedulers', () => {
  const wanted = wantedSchedulers(config);

  it('creates everything on an empty Redis', () => {
    expect(planSchedulers(wanted, [])).toMatchObject({ remove: [], keep: [] });
    expect(planSchedulers(wanted, []).upsert).toHaveLength(5);
  });

  it('changes nothing when Redis already matches (restarts make no writes)', () => {
    const plan = planSchedulers(wanted, wanted.map(asExisting));
    expect(plan.upsert).toEqual([]);
    expect(plan.remove).toEqual([]);
    expect(plan.keep).toHaveLength(5);
  });

  it('removes zones no longer configured and updates changed intervals', () => {
    const existing = [
      ...wanted.map(asExisting),
      {
        key: 'origin-999',
        name: 'plan',
        every: 3_600_000,
        template: { data: { source: 'origin', zone: 999 } },
      },
    ];
    existing[0] = { ...existing[0]!, every: 60_000 };
    const plan = planSchedulers(wanted, existing);
    expect(plan.remove).toEqual(['origin-999']);
    expect(plan.upsert.map((w) => w.id)).toEqual(['origin-101']);
  });
});
