// Today through the client as the simulator's clock advances: the day grows, and a token minted in the
// morning still resumes at the same entry in the evening.
import { describe, expect, it } from 'vitest';
import { dayStartMs } from '../../src/time/utc-day.js';
import { closeAfterEach, start, TODAY } from './helpers.js';

closeAfterEach();

const H = 3_600_000;
const MORNING = dayStartMs(TODAY) + 6 * H;
const EVENING = dayStartMs(TODAY) + 18 * H;

describe("today's Shield event logs", () => {
  it('grow with the clock, and an old token resumes at the right place', async () => {
    let clock = MORNING;
    const { sim, client } = await start({ entriesPerDay: 2400, pageSize: 100, now: () => clock });

    const morningIds: string[] = [];
    const tokens: string[] = [];
    let token = '';
    for (;;) {
      const page = await client.shieldEventLogs(201, TODAY, token);
      morningIds.push(...page.logs.map((e) => e.logId));
      if (!page.hasMoreData) break;
      token = page.continuationToken!;
      tokens.push(token);
    }
    const morning = sim.entries('shield', 201, TODAY, MORNING);
    expect(morningIds).toEqual(morning.map((e) => e.logId));
    expect(Math.abs(morning.length - 600)).toBeLessThanOrEqual(1);

    clock = EVENING;
    const evening = sim.entries('shield', 201, TODAY);
    expect(evening.length).toBeGreaterThan(morning.length + 1000);
    expect(evening.slice(0, morning.length)).toEqual(morning);

    // The token minted for page 2 in the morning still starts at entry 100.
    const resumed = await client.shieldEventLogs(201, TODAY, tokens[0]);
    expect(resumed.logs.map((e) => e.logId)).toEqual(evening.slice(100, 200).map((e) => e.logId));

    // The last morning token, followed to the end, now runs into the evening's entries.
    const rest: string[] = [];
    token = tokens.at(-1)!;
    for (;;) {
      const page = await client.shieldEventLogs(201, TODAY, token);
      rest.push(...page.logs.map((e) => e.logId));
      if (!page.hasMoreData) break;
      token = page.continuationToken!;
    }
    const from = tokens.length * 100;
    expect(rest).toEqual(evening.slice(from).map((e) => e.logId));
  });

  it('a spike in progress is visible up to the clock, after the base entries', async () => {
    let clock = dayStartMs(TODAY) + 10 * H;
    const { sim, client } = await start({
      entriesPerDay: 0,
      pageSize: 1000,
      now: () => clock,
      spikes: [
        {
          source: 'shield',
          zone: 202,
          from: dayStartMs(TODAY) + 9 * H,
          to: dayStartMs(TODAY) + 11 * H,
          count: 400,
        },
      ],
    });
    const first = await client.shieldEventLogs(202, TODAY);
    expect(Math.abs(first.logs.length - 200)).toBeLessThanOrEqual(1);
    expect(first.logs.every((e) => e.timestamp <= clock)).toBe(true);
    clock += 5 * H;
    const later = await client.shieldEventLogs(202, TODAY);
    expect(later.logs).toHaveLength(400);
    expect(later.logs.map((e) => e.logId)).toEqual(sim.entries('shield', 202, TODAY).map((e) => e.logId));
  });
});
