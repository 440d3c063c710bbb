// What the client hides: raw status codes, bodies and headers, straight from undici.
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeToken, Simulator, type SimulatorOptions, type SimUrls } from '../../src/simulator/index.js';
import { addDays, DAY_MS, dayStartMs, toApiDate, type Day } from '../../src/time/utc-day.js';
import { NOON, TODAY } from './helpers.js';

const DAY: Day = addDays(TODAY, -1);
const KEY = { AccessKey: 'sim-access-key' };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function serve(opts: SimulatorOptions = {}): Promise<{ sim: Simulator; urls: SimUrls; agent: Agent }> {
  const sim = new Simulator({ now: () => NOON, ...opts });
  const urls = await sim.listen();
  const agent = new Agent();
  open.push(sim, agent);
  return { sim, urls, agent };
}

async function get(
  agent: Agent,
  url: string,
  headers: Record<string, string> = KEY,
  method: 'GET' | 'POST' = 'GET',
) {
  const res = await request(url, { dispatcher: agent, headers, method });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: (): unknown => JSON.parse(text) };
}

const logsUrl = (urls: SimUrls, zone: number, day: Day, token?: string) =>
  `${urls.baseUrl}/shield/event-logs/${zone}/${toApiDate(day)}${token === undefined ? '' : `/${encodeURIComponent(token)}`}`;

describe('Shield event logs on the wire', () => {
  it('the first page answers with and without the empty token segment', async () => {
    const { urls, agent } = await serve({ entriesPerDay: 30 });
    const withSlash = await get(agent, logsUrl(urls, 201, DAY, ''));
    const without = await get(agent, logsUrl(urls, 201, DAY));
    expect(withSlash.status).toBe(200);
    expect(withSlash.headers['content-type']).toMatch(/^application\/json/);
    expect(without.text).toBe(withSlash.text);
    expect(withSlash.json()).toMatchObject({
      hasMoreData: false,
      continuationToken: null,
      startToken: expect.any(String) as string,
      errorResponse: { success: true, message: null, errorKey: null },
    });
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['a token of another zone', encodeToken({ zone: 202, day: DAY, segment: 0, index: 5, page: 2 })],
    ['a token of another day', encodeToken({ zone: 201, day: TODAY, segment: 0, index: 5, page: 2 })],
  ])('%s is a 400 problem detail', async (_name, token) => {
    const { urls, agent } = await serve();
    const res = await get(agent, logsUrl(urls, 201, DAY, token));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'Bad Request',
      status: 400,
      detail: expect.stringContaining('token') as string,
      instance: expect.stringMatching(/^\/shield\/event-logs\/201\//) as string,
    });
  });

  it('a token sent without percent-encoding does not work', async () => {
    const { urls, agent } = await serve({ entriesPerDay: 30, pageSize: 10 });
    const token = (
      JSON.parse((await get(agent, logsUrl(urls, 201, DAY, ''))).text) as { continuationToken: string }
    ).continuationToken;
    const raw = await get(agent, `${urls.baseUrl}/shield/event-logs/201/${toApiDate(DAY)}/${token}`);
    expect(raw.status).not.toBe(200);
  });

  it('a missing AccessKey is a 401 problem detail naming the instance', async () => {
    const { urls, agent } = await serve();
    const res = await get(agent, logsUrl(urls, 201, DAY, ''), {});
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
      title: 'Unauthorized',
      status: 401,
      detail: expect.any(String) as string,
      instance: `/shield/event-logs/201/${toApiDate(DAY)}/`,
    });
  });

  it('an expired day is a 401 with the window errorKey, logs null and hasMoreData false', async () => {
    const { urls, agent } = await serve();
    const res = await get(agent, logsUrl(urls, 201, addDays(TODAY, -3), ''));
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({
      logs: null,
      hasMoreData: false,
      errorResponse: {
        success: false,
        errorKey: 'invalid_datetime_window.event_logs',
        message: expect.any(String) as string,
      },
    });
  });

  it('shieldWindowDays moves the window', async () => {
    const { urls, agent } = await serve({ shieldWindowDays: 0 });
    expect((await get(agent, logsUrl(urls, 201, TODAY, ''))).status).toBe(200);
    expect((await get(agent, logsUrl(urls, 201, DAY, ''))).status).toBe(401);
  });

  it('a million-entry day is served page by page from anywhere in it', async () => {
    const n = 1_000_000;
    const { sim, urls, agent } = await serve({ entriesPerDay: n });
    expect(sim.count('shield', 201, DAY)).toBe(n);
    const index = 600_000;
    const token = encodeToken({ zone: 201, day: DAY, segment: 0, index, page: 601 });
    const page = (await get(agent, logsUrl(urls, 201, DAY, token))).json() as {
      logs: Array<{ timestamp: number }>;
      hasMoreData: boolean;
    };
    expect(page.logs).toHaveLength(1000);
    expect(page.hasMoreData).toBe(true);
    const start = dayStartMs(DAY);
    page.logs.forEach((e, i) => {
      // Entry j sits in its own slot [start + j·day/n, start + (j+1)·day/n).
      expect(e.timestamp).toBeGreaterThanOrEqual(start + Math.floor(((index + i) * DAY_MS) / n));
      expect(e.timestamp).toBeLessThan(start + Math.ceil(((index + i + 1) * DAY_MS) / n));
    });
    expect(sim.stats.entriesServed).toBe(1000);
  });

  it('is deterministic: two simulators with one seed serve the same bytes', async () => {
    const a = await serve({ seed: 99, entriesPerDay: 300 });
    const b = await serve({ seed: 99, entriesPerDay: 300 });
    const [x, y] = await Promise.all(
      [a, b].map(async (s) => (await get(s.agent, logsUrl(s.urls, 203, DAY, ''))).text),
    );
    expect(x).toBe(y);
  });
});

describe('errors of the other operations on the wire', () => {
  it.each([
    ['origin, ISO date', (u: SimUrls) => `${u.originLogUrl}/101/2026-11-21`],
    ['origin, impossible day', (u: SimUrls) => `${u.originLogUrl}/101/02-30-2026`],
    ['shield, impossible day', (u: SimUrls) => `${u.baseUrl}/shield/event-logs/201/13-01-2026/`],
  ])('bad date (%s) is a 400 problem detail', async (_name, url) => {
    const { urls, agent } = await serve();
    const res = await get(agent, url(urls));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      title: 'Bad Request',
      detail: expect.stringContaining('MM-dd-yyyy') as string,
    });
  });

  it.each([
    ['an unknown path', '/api/nothing/here'],
    ['outside the three prefixes', '/elsewhere'],
    ['a script id that is not a number', '/api/compute/script/abc'],
  ])('%s is 404 {"statusCode":404}', async (_name, path) => {
    const { urls, agent } = await serve();
    const res = await get(agent, `${new URL(urls.baseUrl).origin}${path}`);
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404 });
  });

  it('only GET is served', async () => {
    const { urls, agent } = await serve();
    const res = await get(agent, `${urls.baseUrl}/shield/ddos/enums`, KEY, 'POST');
    expect(res.status).toBe(405);
  });

  it('the AccessKey guards /api and /origin, not /video', async () => {
    const { urls, agent } = await serve();
    expect((await get(agent, `${urls.originLogUrl}/101/${toApiDate(DAY)}`, {})).json()).toEqual({
      statusCode: 401,
    });
    expect((await get(agent, `${urls.baseUrl}/shield/rate-limit/1`, { AccessKey: 'x' })).json()).toEqual({
      statusCode: 401,
    });
    expect((await get(agent, `${urls.videoUrl}/library/1/videos/v/play`, {})).status).toBe(200);
  });

  it('latencyMs delays answers without changing them', async () => {
    const latencyMs = 150;
    const fast = await serve({ entriesPerDay: 20 });
    const slow = await serve({ entriesPerDay: 20, latencyMs });
    const [a, b] = await Promise.all(
      [fast, slow].map(async (s) => {
        const started = performance.now();
        const { text } = await get(s.agent, `${s.urls.originLogUrl}/101/${toApiDate(DAY)}`);
        return { text, ms: performance.now() - started };
      }),
    );
    expect(b!.text).toBe(a!.text);
    // Timers may fire up to a millisecond early; the answer cannot come sooner than that.
    expect(b!.ms).toBeGreaterThanOrEqual(latencyMs - 1);
    expect(slow.sim.stats).toMatchObject({ requests: 1, entriesServed: 20 });
  });

  it('429 carries Retry-After (default 1)', async () => {
    const { urls, agent } = await serve({ faults: [{ kind: '429', times: 1 }] });
    const res = await get(agent, `${urls.baseUrl}/shield/ddos/enums`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ statusCode: 429 });
  });

  it('truncate sends the first half of the body with a matching Content-Length', async () => {
    const { sim, urls, agent } = await serve({ entriesPerDay: 40 });
    const url = `${urls.originLogUrl}/102/${toApiDate(DAY)}`;
    const whole = await get(agent, url);
    sim.setFaults([{ kind: 'truncate', times: 1 }]);
    const cut = await get(agent, url);
    expect(cut.status).toBe(200);
    expect(Number(cut.headers['content-length'])).toBe(Buffer.byteLength(cut.text));
    expect(cut.text).toBe(whole.text.slice(0, Math.floor(Buffer.byteLength(whole.text) / 2)));
    expect(() => cut.json()).toThrow();
  });

  it('close() ends promptly with a slow answer pending and keep-alive connections open', async () => {
    const sim = new Simulator({ faults: [{ kind: 'slow', delayMs: 60_000, operation: 'edgeScript' }] });
    const urls = await sim.listen();
    const agent = new Agent();
    open.push(agent);
    await get(agent, `${urls.baseUrl}/shield/ddos/enums`); // leaves a keep-alive connection
    const pending = get(agent, `${urls.baseUrl}/compute/script/1`).catch((e: unknown) => e);
    while (sim.stats.requests < 2) await sleep(5); // the slow request has reached the server
    await sim.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
