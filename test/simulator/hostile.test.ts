// The hostileText knob: every string of every entry, and every message of an error answer, starts with
// terminal control sequences; keys the client acts on stay as they are, so answers mean what they did.
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTILE_TEXT, Simulator, type SimUrls } from '../../src/simulator/index.js';
import { addDays, toApiDate } from '../../src/time/utc-day.js';
import { NOON, TODAY } from './helpers.js';

const DAY = addDays(TODAY, -1);
const KEY = { AccessKey: 'sim-access-key' };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function serve(hostileText: boolean): Promise<{ urls: SimUrls; agent: Agent; sim: Simulator }> {
  const sim = new Simulator({ now: () => NOON, entriesPerDay: 40, hostileText });
  const urls = await sim.listen();
  const agent = new Agent();
  open.push(sim, agent);
  return { urls, agent, sim };
}

async function get(agent: Agent, url: string, headers: Record<string, string> = KEY) {
  const res = await request(url, { dispatcher: agent, headers });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: JSON.parse(text) as Record<string, unknown> };
}

/** Every string in a value, with its path. */
function strings(value: unknown, path = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

/** The strings of one served entry, its embedded log JSON opened up. */
function entryStrings(entry: Record<string, unknown>): Array<[string, string]> {
  const { log, ...rest } = entry;
  return [...strings(rest), ...strings(JSON.parse(log as string), '$.log')];
}

describe('the hostileText knob', () => {
  it('puts the hostile text in front of every string of every origin and Shield entry', async () => {
    const { urls, agent, sim } = await serve(true);
    const origin = await get(agent, `${urls.originLogUrl}/101/${toApiDate(DAY)}`);
    const shield = await get(agent, `${urls.baseUrl}/shield/event-logs/201/${toApiDate(DAY)}/`);
    for (const body of [origin.json, shield.json]) {
      const logs = body.logs as Array<Record<string, unknown>>;
      expect(logs.length).toBe(40);
      for (const entry of logs) {
        const found = entryStrings(entry);
        // logId, RequestUrl/Url, Message, codes, labels, headers, trigger: a dozen strings or more.
        expect(found.length).toBeGreaterThanOrEqual(6);
        for (const [path, text] of found) expect([path, text.startsWith(HOSTILE_TEXT)]).toEqual([path, true]);
      }
    }
    // The oracle serves the same bytes.
    expect(sim.entries('shield', 201, DAY)[0]!.logId).toBe(
      (shield.json.logs as Array<{ logId: string }>)[0]!.logId,
    );
  });

  it('puts it in every error message, adding one to a bare {statusCode}, and keeps errorKey', async () => {
    const { urls, agent } = await serve(true);
    const unknownZone = await get(agent, `${urls.originLogUrl}/999/${toApiDate(DAY)}`);
    expect(unknownZone.status).toBe(404);
    expect(unknownZone.json).toEqual({
      statusCode: 404,
      message: `${HOSTILE_TEXT}the request failed with status 404`,
    });
    const expired = await get(
      agent,
      `${urls.baseUrl}/shield/event-logs/201/${toApiDate(addDays(TODAY, -10))}/`,
    );
    expect(expired.status).toBe(401);
    const failure = expired.json.errorResponse as Record<string, string>;
    expect(failure.errorKey).toBe('invalid_datetime_window.event_logs');
    expect(failure.message!.startsWith(HOSTILE_TEXT)).toBe(true);
    const unauthorized = await get(agent, `${urls.baseUrl}/shield/event-logs/201/${toApiDate(DAY)}/`, {});
    expect(unauthorized.json.detail).toBe(`${HOSTILE_TEXT}a valid AccessKey header is required`);
    expect(unauthorized.json.title).toBe(`${HOSTILE_TEXT}Unauthorized`);
    expect(unauthorized.json.instance).toBe(`/shield/event-logs/201/${toApiDate(DAY)}/`);
  });

  it('off (the default), no answer holds an escape character', async () => {
    const { urls, agent } = await serve(false);
    const shield = await get(agent, `${urls.baseUrl}/shield/event-logs/201/${toApiDate(DAY)}/`);
    const missing = await get(agent, `${urls.originLogUrl}/999/${toApiDate(DAY)}`);
    expect(shield.text).not.toContain('\\u001b');
    expect(missing.text).toBe('{"statusCode":404}');
  });
});
