// The demo's account is the same data whenever the demo runs on a day: a second run, later, is served
// what the first was (the same ids at the same times) and only the entries logged since, so it adds
// nothing to the days the first archived; and zone 101 has its burst of 503s to alert on, at any hour.
import { describe, expect, it } from 'vitest';
import { demoAccount } from '../../src/simulator/demo-account.js';
import { Simulator } from '../../src/simulator/index.js';
import type { SimEntry } from '../../src/simulator/index.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';

const H = 3_600_000;
const ENTRIES = 300;
const ZONES = [
  ['origin', 101],
  ['origin', 102],
  ['shield', 201],
  ['shield', 202],
] as const;

/** What the demo's simulator serves at `now` of a zone-day: its archive keys. */
function served(now: number, source: 'origin' | 'shield', zone: number, day: ReturnType<typeof dayOf>) {
  const sim = new Simulator({ ...demoAccount(ENTRIES, now), now: () => now });
  return sim
    .entries(source, zone, day)
    .map((e: SimEntry) => (e.keyable ? `${e.timestamp}/${e.logId}` : e.raw));
}

describe("the demo's account", () => {
  it.each([
    ['within the hour', '2026-11-23T09:05:00Z', '2026-11-23T09:35:00Z'],
    ['hours apart', '2026-11-23T01:10:00Z', '2026-11-23T22:40:00Z'],
  ])('run again %s, it serves what it served and what was logged since, nothing else', (_when, a, b) => {
    const [first, second] = [Date.parse(a), Date.parse(b)];
    const today = dayOf(first);
    for (const day of [addDays(today, -2), addDays(today, -1), today])
      for (const [source, zone] of ZONES) {
        const before = served(first, source, zone, day);
        const after = new Set(served(second, source, zone, day));
        const lost = before.filter((key) => !after.has(key));
        expect(lost, `${source} ${zone} ${day}`).toEqual([]);
        if (day !== today) expect(after.size, `${source} ${zone} ${day}`).toBe(before.length);
      }
  });

  // From 01:00 UTC on: in the first hour of a day the hour before is yesterday's, without the burst
  // (the alert fires once the hour still filling in is over the threshold).
  it.each(['2026-11-23T01:30:00Z', '2026-11-23T09:05:00Z', '2026-11-23T23:55:00Z'])(
    'at %s, zone 101 had over three times the 5xx of the same hour on the two days before',
    (at) => {
      const now = Date.parse(at);
      const sim = new Simulator({ ...demoAccount(ENTRIES, now), now: () => now });
      const fives = (from: number) =>
        sim
          .entries('origin', 101, dayOf(from))
          .filter(
            (e) =>
              e.odd === null &&
              e.timestamp >= from &&
              e.timestamp < from + H &&
              e.labels.StatusCode?.startsWith('5') === true,
          ).length;
      const hour = now - (now % H) - H;
      const reference = (fives(hour - 24 * H) + fives(hour - 48 * H)) / 2;
      expect(reference).toBeGreaterThan(5);
      expect(fives(hour)).toBeGreaterThanOrEqual(3 * reference);
    },
  );
});
