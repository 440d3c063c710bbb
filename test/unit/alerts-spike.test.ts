import { describe, expect, it } from 'vitest';
import { coverageFrontier, isCovered } from '../../src/alerts/coverage.js';
import {
  judgeSpike,
  referenceWindows,
  windowsToCount,
  type SpikeParams,
  type Window,
} from '../../src/alerts/spike.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (h: number) => T0 + h * H;
const cov = (entries: Record<string, number>) => new Map(Object.entries(entries));

/** Counts from a table of per-hour values, hour index relative to T0. */
const hourly = (values: Record<number, number>) => (w: Window) => {
  let n = 0;
  for (let t = w.from; t < w.to; t += H) n += values[(t - T0) / H] ?? 0;
  return n;
};

const params: SpikeParams = { windowMs: H, reference: 'previous', referenceWindows: 3, factor: 3, min: 20 };

describe('coverage', () => {
  const c = cov({ '2026-11-21': T0, '2026-11-22': at(10.5) });
  it.each([
    ['inside today, before the frontier', at(9), at(10), true],
    ['past the frontier', at(10), at(11), false],
    ['spanning yesterday and today', at(-2), at(1), true],
    ['a day the ledger does not know', at(-30), at(-29), false],
    ['an empty interval', at(5), at(5), true],
  ])('%s', (_n, from, to, expected) => expect(isCovered(c, from, to)).toBe(expected));

  it('frontier is the newest coverage', () => {
    expect(coverageFrontier(c)).toBe(at(10.5));
    expect(coverageFrontier(cov({}))).toBeNull();
  });
});

describe('referenceWindows', () => {
  it('previous windows, or the same hour on earlier days', () => {
    const w = { from: at(10), to: at(11) };
    expect(referenceWindows(w, params)).toEqual([
      { from: at(9), to: at(10) },
      { from: at(8), to: at(9) },
      { from: at(7), to: at(8) },
    ]);
    expect(referenceWindows(w, { ...params, reference: 'same-hour', referenceWindows: 2 })).toEqual([
      { from: at(-14), to: at(-13) },
      { from: at(-38), to: at(-37) },
    ]);
  });
});

describe('judgeSpike', () => {
  const fullToday = cov({ '2026-11-22': at(11) }); // hours 0..10 archived completely
  const base = { 6: 5, 7: 4, 8: 6, 9: 5 };

  it.each([
    [
      'a complete window far above the reference fires',
      fullToday,
      { ...base, 10: 60 },
      at(12),
      { kind: 'judged', firing: true, partial: false, count: 60 },
    ],
    [
      'a complete window at the usual level does not',
      fullToday,
      { ...base, 10: 7 },
      at(12),
      { kind: 'judged', firing: false, count: 7 },
    ],
    [
      'above factor × reference but under the floor does not',
      fullToday,
      { 7: 1, 8: 1, 9: 1, 10: 15 },
      at(12),
      { kind: 'judged', firing: false, threshold: 20 },
    ],
    [
      'zero reference: only the floor decides',
      fullToday,
      { 10: 20 },
      at(12),
      { kind: 'judged', firing: true, reference: 0, threshold: 20 },
    ],
    [
      'the frontier limits the window even if the clock is later',
      fullToday,
      { ...base, 10: 60, 11: 0 },
      at(15),
      { kind: 'judged', firing: true, count: 60 },
    ],
  ] as const)('%s', (_n, coverage, counts, now, expected) => {
    expect(judgeSpike(params, coverage, hourly(counts), now)).toMatchObject(expected);
  });

  // The evaluator reads the counts of windowsToCount from the store first, then judges synchronously.
  it.each([
    ['complete day', fullToday, at(12)],
    ['partial hour', cov({ '2026-11-22': at(10.25) }), at(10.3)],
    ['nothing archived', cov({}), at(5)],
    [
      'same-hour reference',
      cov({ '2026-11-20': at(-24), '2026-11-21': at(0), '2026-11-22': at(11) }),
      at(12),
    ],
  ] as const)('asks only for windows windowsToCount lists: %s', (_n, coverage, now) => {
    for (const p of [params, { ...params, reference: 'same-hour' as const, referenceWindows: 2 }]) {
      const listed = new Set(windowsToCount(p, coverage, now).map((w) => `${w.from}/${w.to}`));
      const asked: string[] = [];
      judgeSpike(p, coverage, (w) => (asked.push(`${w.from}/${w.to}`), 1), now);
      for (const w of asked) expect(listed).toContain(w);
    }
  });

  it('a partial window already over the threshold fires (counts only grow)', () => {
    const v = judgeSpike(params, cov({ '2026-11-22': at(10.25) }), hourly({ ...base, 10: 40 }), at(10.3));
    expect(v).toMatchObject({
      kind: 'judged',
      firing: true,
      partial: true,
      window: { from: at(10), to: at(11) },
    });
  });

  it('a partial window under the threshold does not resolve: the latest complete window decides', () => {
    const v = judgeSpike(params, cov({ '2026-11-22': at(10.25) }), hourly({ ...base, 10: 3 }), at(10.3));
    expect(v).toMatchObject({
      kind: 'judged',
      firing: false,
      partial: false,
      window: { from: at(9), to: at(10) },
    });
  });

  it('a spike in the last complete window keeps firing while the new window fills in, then resolves', () => {
    const counts = hourly({ 6: 5, 7: 4, 8: 6, 9: 60, 10: 3, 11: 5 });
    const during = judgeSpike(params, cov({ '2026-11-22': at(10.5) }), counts, at(10.5));
    expect(during).toMatchObject({ kind: 'judged', firing: true, partial: false, window: { from: at(9) } });
    const after = judgeSpike(params, cov({ '2026-11-22': at(11.5) }), counts, at(11.5));
    expect(after).toMatchObject({ kind: 'judged', firing: false, window: { from: at(10), to: at(11) } });
  });

  it('an empty history is not judged: the first errors are not a spike', () => {
    const v = judgeSpike(params, cov({ '2026-11-22': at(1) }), hourly({ 0: 500 }), at(1));
    expect(v).toMatchObject({ kind: 'unknown', reason: 'no reference window is archived completely yet' });
  });

  it('nothing archived is not judged', () => {
    expect(judgeSpike(params, cov({}), hourly({}), at(5))).toMatchObject({ kind: 'unknown' });
  });

  it('uses only the reference windows that are archived', () => {
    // Only today is archived: for the 01:00 window, of the references 00:00, 23:00 and 22:00 (yesterday)
    // only 00:00 counts; yesterday's huge numbers are not in the archive and must not be read.
    const c = cov({ '2026-11-22': at(2) });
    const v = judgeSpike(params, c, hourly({ [-2]: 1000, [-1]: 1000, 0: 10, 1: 100 }), at(2));
    expect(v).toMatchObject({
      kind: 'judged',
      referenceWindowsUsed: 1,
      reference: 10,
      threshold: 30,
      firing: true,
    });
    const sameHour = judgeSpike(
      { ...params, reference: 'same-hour', referenceWindows: 2 },
      c,
      hourly({ 1: 100 }),
      at(2),
    );
    expect(sameHour).toMatchObject({
      kind: 'unknown',
      reason: 'no reference window is archived completely yet',
    });
  });
});
