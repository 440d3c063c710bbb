// Fault knobs seen through the real ApiClient (attempts 3, short backoff): what is retried, what fails
// and with which error type.
import { describe, expect, it } from 'vitest';
import { HttpStatusError, NetworkError, ResponseError, TimeoutError } from '../../src/errors/index.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import { closeAfterEach, start, TODAY } from './helpers.js';

closeAfterEach();

const DAY: Day = addDays(TODAY, -1);

describe('status faults', () => {
  it('429 times=1 is retried after Retry-After and succeeds', async () => {
    const { sim, client } = await start({
      entriesPerDay: 50,
      faults: [{ kind: '429', times: 1, retryAfter: '0' }],
    });
    const page = await client.shieldEventLogs(201, DAY);
    expect(page.logs).toHaveLength(50);
    expect(sim.stats).toMatchObject({ requests: 2, entriesServed: 50, faults: { '429': 1 } });
  });

  it('429 with a Retry-After beyond the deadline fails at once with HttpStatusError 429', async () => {
    const { sim, client } = await start(
      { faults: [{ kind: '429', times: 5, retryAfter: '3600' }] },
      { retry: { deadlineMs: 5000 } },
    );
    const err = await client.edgeScript(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 3_600_000, body: { statusCode: 429 } });
    expect((err as Error).message).toContain('deadline');
    expect(sim.stats.requests).toBe(1);
  });

  it('429 accepts an HTTP date as Retry-After', async () => {
    const { client } = await start(
      { faults: [{ kind: '429', times: 1, retryAfter: 'Wed, 21 Oct 2099 07:28:00 GMT' }] },
      { retry: { deadlineMs: 5000 } },
    );
    const err = await client.ddosEnums().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429 });
    expect((err as HttpStatusError).retryAfterMs).toBeGreaterThan(1e9);
  });

  it.each(['500', '502', '503'] as const)('%s times=2 is retried twice, then succeeds', async (kind) => {
    const { sim, client } = await start({ faults: [{ kind, times: 2, operation: 'rateLimit' }] });
    expect(await client.rateLimit(3)).toMatchObject({ id: 3 });
    expect(await client.edgeScript(3)).toMatchObject({ Id: 3 });
    expect(sim.stats).toMatchObject({ requests: 4, faults: { [kind]: 2 } });
  });

  it('503 beyond the attempts fails with HttpStatusError 503, retryable', async () => {
    const { client } = await start({ faults: [{ kind: '503', times: 3 }] });
    await expect(client.ddosEnums()).rejects.toMatchObject({
      name: 'HttpStatusError',
      status: 503,
      retryable: true,
      body: { statusCode: 503 },
    });
  });

  it('times counts per URL: concurrent requests for different pages each fail once, then succeed', async () => {
    const { sim, client } = await start({ entriesPerDay: 30, faults: [{ kind: '503', times: 1 }] });
    const zones = [201, 202, 203];
    const pages = await Promise.all(
      zones.flatMap((zone) => [DAY, addDays(DAY, -1)].map((day) => client.shieldEventLogs(zone, day))),
    );
    expect(pages.every((p) => p.logs.length === 30)).toBe(true);
    expect(sim.stats.faults['503']).toBe(6);
    expect(sim.stats.requests).toBe(12);
  });

  it('setFaults toggles faults at run time', async () => {
    const { sim, client } = await start();
    sim.setFaults([{ kind: '500', times: 3 }]);
    await expect(client.edgeScript(2)).rejects.toMatchObject({ status: 500 });
    sim.setFaults([]);
    expect(await client.edgeScript(2)).toMatchObject({ Id: 2 });
  });
});

describe('connection faults', () => {
  it('reset is retried as a NetworkError and succeeds', async () => {
    const { sim, client } = await start({ entriesPerDay: 40, faults: [{ kind: 'reset', times: 1 }] });
    expect((await client.originErrorLogs(101, DAY)).logs).toHaveLength(40);
    expect(sim.stats.faults.reset).toBe(1);
    expect(sim.stats.requests).toBeGreaterThanOrEqual(2);
  });

  it('reset on every attempt ends in a NetworkError', async () => {
    const { client } = await start({ faults: [{ kind: 'reset' }] });
    await expect(client.ddosEnums()).rejects.toBeInstanceOf(NetworkError);
  });

  it('truncate beyond the attempts ends in ResponseError malformed-json', async () => {
    const { sim, client } = await start({ faults: [{ kind: 'truncate', times: 5 }] });
    const err = await client.shieldEventLogs(201, DAY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseError);
    expect(err).toMatchObject({ kind: 'malformed-json', retryable: true });
    expect(sim.stats).toMatchObject({ requests: 3, entriesServed: 0, faults: { truncate: 3 } });
  });

  it('truncate fewer times than the attempts is retried and succeeds', async () => {
    const { sim, client } = await start({ entriesPerDay: 25, faults: [{ kind: 'truncate', times: 2 }] });
    expect((await client.originErrorLogs(102, DAY)).logs).toHaveLength(25);
    expect(sim.stats).toMatchObject({ requests: 3, entriesServed: 25, faults: { truncate: 2 } });
  });

  it('slow beyond the headers timeout ends in a TimeoutError', async () => {
    // undici's headers timer is coarse (about a second), so the delay is far above it; close() ends the wait.
    const { sim, client } = await start(
      { faults: [{ kind: 'slow', delayMs: 10_000, operation: 'ddosEnums' }] },
      { headersTimeoutMs: 100, retry: { attempts: 2 } },
    );
    const err = await client.ddosEnums().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(sim.stats.faults.slow).toBe(2);
    expect(await client.edgeScript(1)).toMatchObject({ Id: 1 });
  });
});

describe('paging faults', () => {
  it('loop: from afterPage on, the returned token is the requested one', async () => {
    const { sim, client } = await start({
      entriesPerDay: 1000,
      pageSize: 100,
      faults: [{ kind: 'loop', afterPage: 2 }],
    });
    const first = await client.shieldEventLogs(201, DAY);
    const t1 = first.continuationToken!;
    expect(first.hasMoreData).toBe(true);
    const second = await client.shieldEventLogs(201, DAY, t1);
    expect(second.continuationToken).toBe(t1);
    expect(second.hasMoreData).toBe(true);
    const again = await client.shieldEventLogs(201, DAY, second.continuationToken!);
    expect(again.logs.map((e) => e.logId)).toEqual(second.logs.map((e) => e.logId));
    expect(sim.stats.faults.loop).toBe(2);
  });

  it('empty-more: that page has no logs but claims more; its token resumes at the same place', async () => {
    const { sim, client } = await start({
      entriesPerDay: 250,
      pageSize: 100,
      faults: [{ kind: 'empty-more', afterPage: 2 }],
    });
    const p1 = await client.shieldEventLogs(202, DAY);
    const p2 = await client.shieldEventLogs(202, DAY, p1.continuationToken!);
    expect(p2).toMatchObject({ logs: [], hasMoreData: true });
    const p3 = await client.shieldEventLogs(202, DAY, p2.continuationToken!);
    const p4 = await client.shieldEventLogs(202, DAY, p3.continuationToken!);
    const oracle = sim.entries('shield', 202, DAY).map((e) => e.logId);
    expect([...p1.logs, ...p3.logs, ...p4.logs].map((e) => e.logId)).toEqual(oracle);
    expect(p4.hasMoreData).toBe(false);
    expect(sim.stats.faults['empty-more']).toBe(1);
  });
});
