// What the client hides: raw status codes, bodies and headers, straight from undici (or node:http
// where a path must go out exactly as written).
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  encodeToken,
  Simulator,
  type FaultSpec,
  type SimulatorOptions,
  type SimUrls,
} from '../../src/simulator/index.js';
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

describe('echoKey', () => {
  const WRONG = 'wrong-key-7f3a';
  const RIGHT = 'sim-access-key';
  const date = toApiDate(DAY);
  // [what, path below the server root, AccessKey sent, fault, status]
  const cases: Array<[string, string, string, FaultSpec | undefined, number]> = [
    ['401 {"statusCode"} with a wrong key', `/origin/101/${date}`, WRONG, undefined, 401],
    ['401 problem detail with a wrong key', `/api/shield/event-logs/201/${date}/`, WRONG, undefined, 401],
    ['400 problem detail (bad date)', '/api/shield/event-logs/201/2026-11-21/', RIGHT, undefined, 400],
    ['404 {"statusCode"} (unknown pull zone)', `/origin/109/${date}`, RIGHT, undefined, 404],
    ['404 rate limit rule', '/api/shield/rate-limit/0', RIGHT, undefined, 404],
    [
      '202 inline failure (unknown shield zone)',
      `/api/shield/event-logs/299/${date}/`,
      RIGHT,
      undefined,
      202,
    ],
    [
      '202 inline failure (API Guardian)',
      '/api/shield/metrics/shield-zone/299/api-guardian',
      RIGHT,
      undefined,
      202,
    ],
    [
      '401 window expired',
      `/api/shield/event-logs/201/${toApiDate(addDays(TODAY, -5))}/`,
      RIGHT,
      undefined,
      401,
    ],
    ['503 fault', '/api/shield/ddos/enums', RIGHT, { kind: '503' }, 503],
    ['429 fault with a wrong key', '/api/shield/ddos/enums', WRONG, { kind: '429' }, 429],
  ];

  it.each(cases)('%s repeats the key when on, never when off', async (_what, path, key, fault, status) => {
    const faults = fault ? [fault] : [];
    const on = await serve({ echoKey: true, faults });
    const off = await serve({ faults });
    const url = (u: SimUrls) => `${new URL(u.baseUrl).origin}${path}`;
    const [a, b] = [
      await get(on.agent, url(on.urls), { AccessKey: key }),
      await get(off.agent, url(off.urls), { AccessKey: key }),
    ];
    expect([a.status, b.status]).toEqual([status, status]);
    expect(a.text).toContain(`AccessKey: ${key}`);
    expect(b.text).not.toContain(key);
    expect(a.json()).toBeTypeOf('object'); // still JSON
  });

  it('the bare bodies gain a "message"; the other shapes keep their fields', async () => {
    const { urls, agent } = await serve({
      echoKey: true,
      faults: [{ kind: '502', operation: 'edgeScript' }],
    });
    expect((await get(agent, `${urls.baseUrl}/compute/script/1`, { AccessKey: WRONG })).json()).toEqual({
      statusCode: 502,
      message: `the request failed with status 502 (AccessKey: ${WRONG})`,
    });
    expect(
      (await get(agent, `${urls.originLogUrl}/101/${toApiDate(DAY)}`, { AccessKey: WRONG })).json(),
    ).toEqual({
      statusCode: 401,
      message: `the request failed with status 401 (AccessKey: ${WRONG})`,
    });
    const problemBody = (await get(agent, logsUrl(urls, 201, DAY, ''), { AccessKey: WRONG })).json();
    expect(problemBody).toMatchObject({
      status: 401,
      detail: `a valid AccessKey header is required (AccessKey: ${WRONG})`,
    });
    const inline = (await get(agent, logsUrl(urls, 299, DAY, ''))).json();
    expect(inline).toMatchObject({
      logs: null,
      errorResponse: { success: false, message: expect.stringContaining(`(AccessKey: ${RIGHT})`) as string },
    });
  });

  it('without an AccessKey header there is nothing to echo: the body is the documented one', async () => {
    const { urls, agent } = await serve({ echoKey: true });
    expect((await get(agent, `${urls.originLogUrl}/101/${toApiDate(DAY)}`, {})).json()).toEqual({
      statusCode: 401,
    });
  });

  it('success answers never carry the key', async () => {
    const { urls, agent } = await serve({ echoKey: true, entriesPerDay: 20 });
    expect((await get(agent, logsUrl(urls, 201, DAY, ''))).text).not.toContain(RIGHT);
    expect((await get(agent, `${urls.originLogUrl}/101/${toApiDate(DAY)}`)).text).not.toContain(RIGHT);
  });
});

/** GET with the path sent exactly as written (undici and fetch parse it as a URL, which folds `%2E`). */
function rawGet(urls: SimUrls, path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(urls.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers: KEY, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface WirePage {
  logs: Array<{ logId: string }> | null;
  hasMoreData: boolean | null;
  continuationToken: string | null;
  startToken: string | null;
  errorResponse: unknown;
}

describe('body faults on the wire', () => {
  it('html: a 200 maintenance page in text/html where JSON was expected', async () => {
    const { sim, urls, agent } = await serve({ faults: [{ kind: 'html', times: 1 }] });
    const res = await get(agent, `${urls.baseUrl}/shield/ddos/enums`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
    expect(() => res.json()).toThrow();
    expect((await get(agent, `${urls.baseUrl}/shield/ddos/enums`)).headers['content-type']).toMatch(
      /^application\/json/,
    );
    expect(sim.stats.faults).toEqual({ html: 1 });
  });

  it.each([
    ['an origin day (streamed)', (u: SimUrls) => `${u.originLogUrl}/102/${toApiDate(DAY)}`],
    ['a Shield page', (u: SimUrls) => logsUrl(u, 201, DAY, '')],
  ])('gzip: %s arrives as gzip bytes (1f 8b) that inflate to the usual JSON', async (_what, url) => {
    const { sim, urls, agent } = await serve({ entriesPerDay: 40, faults: [{ kind: 'gzip', times: 1 }] });
    const res = await request(url(urls), { dispatcher: agent, headers: KEY });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const usual = await get(agent, url(urls)); // the fault fired once for this URL
    expect(usual.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(bytes).toString()).toBe(usual.text);
    expect(sim.stats).toMatchObject({ entriesServed: 80, faults: { gzip: 1 } });
  });

  it('slow-body: headers and the first piece at once, then a piece every delayMs; the body is whole', async () => {
    const [chunks, delayMs] = [5, 100];
    const { sim, urls, agent } = await serve({
      entriesPerDay: 300,
      faults: [{ kind: 'slow-body', chunks, delayMs, times: 1 }],
    });
    const url = `${urls.originLogUrl}/101/${toApiDate(DAY)}`;
    // "At once" is judged by the simulator's state, not by a clock: it counts the entries of an answer
    // once the last piece is written, and it shares this process's event loop, so a loaded machine
    // delays both alike. The headers and the first piece must arrive while it is still writing.
    const started = performance.now();
    const res = await request(url, { dispatcher: agent, headers: KEY });
    const atHeaders = sim.stats.entriesServed;
    const parts: Buffer[] = [];
    let atFirstPiece: number | undefined;
    for await (const part of res.body as AsyncIterable<Buffer>) {
      atFirstPiece ??= sim.stats.entriesServed;
      parts.push(part);
    }
    const endAt = performance.now() - started;
    expect([atHeaders, atFirstPiece]).toEqual([0, 0]);
    expect(sim.stats.entriesServed).toBe(300);
    // Timers may fire up to a millisecond early, once per wait; a lower bound holds on any machine.
    expect(endAt).toBeGreaterThanOrEqual((chunks - 1) * (delayMs - 1));
    const body = Buffer.concat(parts).toString();
    expect(body).toBe((await get(agent, url)).text);
    expect((JSON.parse(body) as { logs: unknown[] }).logs).toHaveLength(300);
    expect(sim.stats).toMatchObject({ entriesServed: 600, faults: { 'slow-body': 1 } });
  });

  it('slow-body: close() does not wait for the remaining pieces', async () => {
    const sim = new Simulator({ now: () => NOON, faults: [{ kind: 'slow-body', delayMs: 60_000 }] });
    const urls = await sim.listen();
    const agent = new Agent();
    open.push(agent);
    const res = await request(`${urls.baseUrl}/shield/ddos/enums`, { dispatcher: agent, headers: KEY });
    const body = res.body.text().catch((e: unknown) => e);
    // The next piece is a minute away, twice the test's timeout: a close() that waited for it would
    // never return in time; no clock is needed to tell.
    await sim.close();
    expect(await body).toBeInstanceOf(Error);
  });

  it('more: origin answers claim more data and carry a token, though they hold the whole day', async () => {
    const { sim, urls, agent } = await serve({ entriesPerDay: 30, faults: [{ kind: 'more' }] });
    for (const zone of [101, 102]) {
      const page = (await get(agent, `${urls.originLogUrl}/${zone}/${toApiDate(DAY)}`)).json() as WirePage;
      expect(page.logs!.map((e) => e.logId)).toEqual(sim.entries('origin', zone, DAY).map((e) => e.logId));
      expect(page.hasMoreData).toBe(true);
      expect(page.continuationToken).toEqual(expect.stringMatching(/./));
    }
    const shield = (await get(agent, logsUrl(urls, 201, DAY, ''))).json() as WirePage;
    expect(shield.hasMoreData).toBe(false);
    expect(sim.stats.faults).toEqual({ more: 2 });
  });

  it('null-fields: every nullable outer field is null; Shield paging fields stay as they were', async () => {
    const faulty = await serve({ entriesPerDay: 30, pageSize: 20, faults: [{ kind: 'null-fields' }] });
    const usual = await serve({ entriesPerDay: 30, pageSize: 20 });
    const page = async (s: typeof usual) =>
      (await get(s.agent, logsUrl(s.urls, 201, DAY, ''))).json() as WirePage;
    const [a, b] = [await page(faulty), await page(usual)];
    expect(a).toEqual({ ...b, errorResponse: null, startToken: null });
    expect(a.hasMoreData).toBe(true);
    for (const zone of [101, 102]) {
      const url = (s: typeof usual) => `${s.urls.originLogUrl}/${zone}/${toApiDate(DAY)}`;
      const origin = (await get(faulty.agent, url(faulty))).json() as WirePage;
      const plain = (await get(usual.agent, url(usual))).json() as WirePage;
      expect(origin).toEqual({
        logs: plain.logs,
        hasMoreData: null,
        continuationToken: null,
        startToken: null,
      });
    }
    expect(faulty.sim.stats.faults).toEqual({ 'null-fields': 3 });
  });
});

describe('dotTokens', () => {
  const date = toApiDate(DAY);
  const path = (token: string) => `/api/shield/event-logs/201/${date}/${token}`;

  it('pages 1 and 2 hand out "." and ".."; %2E and %2E%2E get pages 2 and 3; later tokens are opaque', async () => {
    const { sim, urls } = await serve({ dotTokens: true, entriesPerDay: 45, pageSize: 10 });
    const pages: WirePage[] = [];
    let token = '';
    for (let p = 1; p <= 5; p++) {
      const res = await rawGet(urls, path(encodeURIComponent(token).replace(/\./g, '%2E')));
      expect(res.status).toBe(200);
      const page = JSON.parse(res.text) as WirePage;
      pages.push(page);
      token = page.continuationToken ?? '';
    }
    expect(pages.map((p) => p.continuationToken?.slice(0, 2))).toEqual([
      '.',
      '..',
      expect.any(String),
      expect.any(String),
      undefined,
    ]);
    expect(pages[2]!.continuationToken).not.toMatch(/^\.+$/);
    expect(pages.flatMap((p) => p.logs!.map((e) => e.logId))).toEqual(
      sim.entries('shield', 201, DAY).map((e) => e.logId),
    );
  });

  it('a dot token answers exactly what the opaque token of that page answers (stateless)', async () => {
    const { urls } = await serve({ dotTokens: true, entriesPerDay: 45, pageSize: 10 });
    for (const [dots, page] of [
      ['%2E', 2],
      ['%2E%2E', 3],
      ['%2e', 2],
      ['.', 2],
    ] as const) {
      const opaque = encodeToken({ zone: 201, day: DAY, segment: 0, index: (page - 1) * 10, page });
      const byDots = await rawGet(urls, path(dots));
      expect(byDots.status).toBe(200);
      expect(byDots.text).toBe((await rawGet(urls, path(encodeURIComponent(opaque)))).text);
    }
  });

  it('recounts across segments: a spike after a base segment that fills page 1 exactly', async () => {
    const from = dayStartMs(DAY) + 3_600_000;
    const { sim, urls } = await serve({
      dotTokens: true,
      entriesPerDay: 10,
      pageSize: 10,
      spikes: [{ source: 'shield', zone: 201, from, to: from + 3_600_000, count: 15 }],
    });
    const two = JSON.parse((await rawGet(urls, path('%2E'))).text) as WirePage;
    const three = JSON.parse((await rawGet(urls, path('%2E%2E'))).text) as WirePage;
    const ids = sim.entries('shield', 201, DAY).map((e) => e.logId);
    expect(two.logs!.map((e) => e.logId)).toEqual(ids.slice(10, 20));
    expect(three.logs!.map((e) => e.logId)).toEqual(ids.slice(20));
    expect([two.continuationToken, three.continuationToken, three.hasMoreData]).toEqual(['..', null, false]);
  });

  it('a dot token past the end of the day is an empty last page', async () => {
    const { urls } = await serve({ dotTokens: true, entriesPerDay: 5, pageSize: 10 });
    const page = JSON.parse((await rawGet(urls, path('%2E%2E'))).text) as WirePage;
    expect(page).toMatchObject({ logs: [], hasMoreData: false, continuationToken: null });
  });

  it('the defect it exposes: URL resolution folds "." and ".." (and even %2E) before the request goes out', async () => {
    const { urls, agent } = await serve({ dotTokens: true, entriesPerDay: 25, pageSize: 10 });
    const base = `${urls.baseUrl}/shield/event-logs/201/${date}`;
    expect(new URL(`${base}/.`).pathname).toBe(`/api/shield/event-logs/201/${date}/`);
    expect(new URL(`${base}/..`).pathname).toBe('/api/shield/event-logs/201/');
    expect(new URL(`${base}/%2E`).pathname).toBe(`/api/shield/event-logs/201/${date}/`);
    const first = await get(agent, `${base}/`);
    expect((await get(agent, `${base}/.`)).text).toBe(first.text); // page 1 again
    expect((await get(agent, `${base}/..`)).status).toBe(400); // the date is gone
  });

  it('off by default: a dot token is not a token', async () => {
    const { urls } = await serve({ entriesPerDay: 25, pageSize: 10 });
    const first = JSON.parse((await rawGet(urls, path(''))).text) as WirePage;
    expect(first.continuationToken).not.toBe('.');
    expect((await rawGet(urls, path('%2E'))).status).toBe(400);
  });
});
