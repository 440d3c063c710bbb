// The seven operations through the project's real ApiClient over loopback: shapes validate, Shield
// paging equals the oracle, and the API's error answers surface as edgelog's error types.
import { describe, expect, it } from 'vitest';
import { aggregateSmartGenerateStatus, VideoModelStatus } from '../../src/api/enums.js';
import type { ApiClient } from '../../src/api/index.js';
import { videoPlayDataSchema } from '../../src/api/schemas/video.js';
import { AuthError, HttpStatusError, InlineApiError, WindowExpiredError } from '../../src/errors/index.js';
import { videoToken } from '../../src/simulator/index.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import { clientFor, closeAfterEach, NOON, start, TODAY } from './helpers.js';

closeAfterEach();

const YESTERDAY: Day = addDays(TODAY, -1);

async function allPages(client: ApiClient, zone: number, day: Day) {
  const pages = [];
  let token = '';
  for (let i = 0; i < 100; i++) {
    const page = await client.shieldEventLogs(zone, day, token);
    pages.push(page);
    if (!page.hasMoreData) break;
    token = page.continuationToken ?? '';
  }
  return pages;
}

describe('Shield event logs (4.6)', () => {
  it('paging from the empty token to the end yields exactly the oracle: ids, order and count', async () => {
    const { sim, client } = await start({ entriesPerDay: 2345, pageSize: 500 });
    const pages = await allPages(client, 201, YESTERDAY);
    expect(pages.map((p) => p.logs.length)).toEqual([500, 500, 500, 500, 345]);
    const served = pages.flatMap((p) => p.logs);
    const oracle = sim.entries('shield', 201, YESTERDAY);
    expect(served.map((e) => e.logId)).toEqual(oracle.map((e) => e.logId));
    expect(served).toEqual(oracle.map((e) => JSON.parse(e.raw) as unknown));
    expect(sim.stats.entriesServed).toBe(2345);
    const last = pages.at(-1)!;
    expect(last.continuationToken ?? '').toBe('');
    for (const p of pages) {
      expect(p.errorResponse).toEqual({ success: true, message: null, errorKey: null });
      expect(p.startToken).toBeTruthy();
    }
  });

  it('continuation tokens hold / + = ? # % & and are distinct page to page', async () => {
    const { client } = await start({ entriesPerDay: 1200, pageSize: 300 });
    const tokens = (await allPages(client, 202, YESTERDAY)).map((p) => p.continuationToken).filter(Boolean);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) for (const ch of '/+=?#%&') expect(token).toContain(ch);
  });

  it('serves a window of today and the two days before; older dates are WindowExpiredError', async () => {
    const { client } = await start({ entriesPerDay: 10 });
    expect((await client.shieldEventLogs(201, addDays(TODAY, -2))).logs).toHaveLength(10);
    const err = await client.shieldEventLogs(201, addDays(TODAY, -3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WindowExpiredError);
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect((err as WindowExpiredError).body).toMatchObject({
      errorResponse: { success: false, errorKey: 'invalid_datetime_window.event_logs' },
    });
  });

  it('a future day has no entries yet', async () => {
    const { client } = await start();
    const page = await client.shieldEventLogs(201, addDays(TODAY, 1));
    expect(page).toMatchObject({ logs: [], hasMoreData: false });
  });

  it('an unknown shield zone is an InlineApiError inside HTTP 202', async () => {
    const { client } = await start();
    const err = await client.shieldEventLogs(299, YESTERDAY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InlineApiError);
    expect(err).toMatchObject({ status: 202, errorKey: 'not_found_or_unauthorised_access.shieldzone' });
  });

  it('a wrong access key is an AuthError', async () => {
    const { urls } = await start();
    const wrong = clientFor(urls, 'not-the-key');
    const err = await wrong.shieldEventLogs(201, YESTERDAY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).body).toMatchObject({
      status: 401,
      title: 'Unauthorized',
      instance: expect.stringMatching(/^\/shield\/event-logs\/201\//) as string,
    });
  });
});

describe('origin error logs (4.2)', () => {
  it('one call returns the whole day, equal to the oracle', async () => {
    const { sim, client } = await start({ entriesPerDay: 1700 });
    const res = await client.originErrorLogs(102, YESTERDAY);
    const oracle = sim.entries('origin', 102, YESTERDAY);
    expect(res.logs).toEqual(oracle.map((e) => JSON.parse(e.raw) as unknown));
    expect(res).toMatchObject({ hasMoreData: null, continuationToken: null, startToken: null });
  });

  it('odd zones also carry the undocumented paging fields', async () => {
    const { client } = await start({ entriesPerDay: 20 });
    const res = await client.originErrorLogs(101, YESTERDAY);
    expect(res.logs).toHaveLength(20);
    expect(res.hasMoreData).toBe(false);
    expect(res.continuationToken).toBeNull();
    expect(res.startToken).toEqual(expect.any(String));
  });

  it('today holds what the clock has logged so far', async () => {
    const { sim, client } = await start({ entriesPerDay: 2400 });
    const res = await client.originErrorLogs(103, TODAY);
    expect(res.logs.length).toBe(sim.count('origin', 103, TODAY));
    expect(Math.abs(res.logs.length - 1200)).toBeLessThanOrEqual(1);
    expect(res.logs.every((e) => e.timestamp <= NOON)).toBe(true);
  });

  it('an unknown pull zone is HTTP 404; a wrong key is an AuthError', async () => {
    const { urls, client } = await start();
    const missing = await client.originErrorLogs(999, YESTERDAY).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HttpStatusError);
    expect(missing).toMatchObject({ status: 404, body: { statusCode: 404 } });
    const err = await clientFor(urls, 'wrong')
      .originErrorLogs(101, YESTERDAY)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ status: 401, body: { statusCode: 401 } });
  });
});

describe('edge script (4.3), API Guardian (4.4), DDoS enums (4.5), rate limit (4.7)', () => {
  it('edge script: deterministic by id, PascalCase; unknown id is 404', async () => {
    const { client } = await start();
    const a = await client.edgeScript(17);
    expect(a).toMatchObject({ Id: 17, Name: 'sim-script-17', Deleted: false });
    expect(a.Integration?.DeployConfiguration?.Branch).toBe('main');
    expect(await client.edgeScript(17)).toEqual(a);
    expect(await client.edgeScript(1000)).toMatchObject({ Id: 1000 });
    await expect(client.edgeScript(1001)).rejects.toMatchObject({ status: 404, body: { statusCode: 404 } });
  });

  it('API Guardian: counters grow with the clock; 28 days of overview', async () => {
    let clock = NOON;
    const { client } = await start({ now: () => clock });
    const first = await client.apiGuardianMetrics(201);
    expect(first.error).toEqual({ success: true, message: null, errorKey: null });
    clock += 5 * 60_000;
    const later = await client.apiGuardianMetrics(201);
    const totals = Object.keys(first.data!).filter((k) => k.startsWith('total'));
    expect(totals).toHaveLength(6);
    for (const key of totals) {
      const [a, b] = [first.data![key], later.data![key]] as number[];
      expect(b).toBeGreaterThanOrEqual(a!);
    }
    expect(later.data!.totalRequestsInspected).toBeGreaterThan(first.data!.totalRequestsInspected!);
    const overview = later.data!.overviewPastTwentyEightDays!;
    expect(Object.keys(overview)).toHaveLength(28);
    expect(Object.keys(overview).at(-1)).toBe(`${TODAY}T00:00:00Z`);
    for (const day of Object.values(overview)) {
      const counters = day as Record<string, unknown>;
      expect(Object.keys(counters)).toEqual([
        'blockedRequests',
        'loggedRequests',
        'rateLimited',
        'requestsInspected',
        'failedRequestValidation',
        'failedAuthenticationEnforcement',
      ]);
      expect(Object.values(counters).every((n) => Number.isInteger(n) && (n as number) >= 0)).toBe(true);
    }
  });

  it('API Guardian: an unknown zone is an InlineApiError inside HTTP 202', async () => {
    const { client } = await start();
    await expect(client.apiGuardianMetrics(42)).rejects.toMatchObject({
      name: 'InlineApiError',
      status: 202,
      errorKey: 'not_found_or_unauthorised_access.shieldzone',
    });
  });

  it('DDoS enums: a catalogue of enum groups', async () => {
    const { client } = await start();
    const { data } = await client.ddosEnums();
    expect(data!.length).toBeGreaterThanOrEqual(3);
    for (const group of data!) {
      expect(typeof group.enumName).toBe('string');
      for (const v of group.enumValues!) {
        expect([typeof v.name, typeof v.value, typeof v.isPremium, typeof v.optionalInput]).toEqual([
          'string',
          'number',
          'boolean',
          'boolean',
        ]);
        expect(Array.isArray(v.supportedValues?.values) && typeof v.supportedValues?.editable).toBe(
          'boolean',
        );
        expect(Array.isArray(v.recommendedOperator?.values)).toBe(true);
      }
    }
  });

  it('rate limit: deterministic by id with every variableTypes key; unknown id is the model-state 404', async () => {
    const { client } = await start();
    const rule = await client.rateLimit(5);
    expect(rule).toMatchObject({ id: 5, errorResponse: { success: true } });
    expect(Object.keys(rule.ruleConfiguration!.variableTypes!)).toHaveLength(27);
    expect(rule.ruleConfiguration!.variableTypes).toHaveProperty('VERIFIED_BOT_CATEGORY');
    expect(JSON.parse(rule.ruleJson!)).toEqual(expect.any(Object));
    expect(await client.rateLimit(5)).toEqual(rule);
    await expect(client.rateLimit(1001)).rejects.toMatchObject({
      status: 404,
      body: {
        location: 'id',
        value: null,
        formatters: [],
        contentTypes: [],
        declaredType: '',
        statusCode: 404,
      },
    });
  });

  it('wrong key: {"statusCode":401} for edge scripts and rate limits', async () => {
    const { urls } = await start();
    const wrong = clientFor(urls, 'nope');
    await expect(wrong.edgeScript(1)).rejects.toMatchObject({ name: 'AuthError', body: { statusCode: 401 } });
    await expect(wrong.rateLimit(1)).rejects.toMatchObject({ name: 'AuthError', body: { statusCode: 401 } });
    await expect(wrong.ddosEnums()).rejects.toMatchObject({ name: 'AuthError', body: { statusCode: 401 } });
  });
});

describe('video play data (4.1)', () => {
  it('passes the strict schema and obeys the playability rules of 2.2 for many videos', async () => {
    const { urls } = await start();
    const client = clientFor(urls, undefined); // video takes no AccessKey
    const statuses = new Set<number>();
    const sources = new Set<string>();
    let withFeatures = 0;
    for (let i = 0; i < 60; i++) {
      const play = await client.videoPlayData(3, `video-${i}`);
      expect(videoPlayDataSchema.safeParse(play).success).toBe(true);
      const v = play.video!;
      statuses.add(v.status);
      sources.add(play.preferredPlaybackSource!);
      const originalPlayable = play.isPlayable && !play.isPlaylistPlayable;
      expect(play.preferredPlaybackSource).toBe(
        play.isPlaylistPlayable ? 'Playlist' : originalPlayable ? 'Original' : 'None',
      );
      if (v.status === VideoModelStatus.Finished) expect(play.isPlaylistPlayable).toBe(true);
      if (originalPlayable) expect(v.hasOriginal).toBe(true);
      if (v.status === VideoModelStatus.Created || v.status === VideoModelStatus.UploadFailed) {
        expect(play.isPlayable).toBe(false);
      }
      const features = v.smartGenerateFeaturesStatus;
      if (features) {
        withFeatures++;
        // The aggregate of 2.2; with no feature InProgress/Queued/Failed/Finished the legacy value stays.
        const derived = aggregateSmartGenerateStatus(features, null);
        if (derived !== null) expect(v.smartGenerateStatus).toBe(derived);
      }
      expect(play.tokenAuthEnabled).toBe(false);
      expect(v.guid).toBe(`video-${i}`);
    }
    expect(statuses.size).toBeGreaterThanOrEqual(5);
    expect(sources).toEqual(new Set(['Playlist', 'Original', 'None']));
    expect(withFeatures).toBeGreaterThan(10);
    expect(withFeatures).toBeLessThan(50);
    expect(await client.videoPlayData(3, 'video-1')).toEqual(await client.videoPlayData(3, 'video-1'));
  });

  it('a missing video is a 404 with a problem detail', async () => {
    const { urls } = await start();
    const err = await clientFor(urls, undefined)
      .videoPlayData(3, 'missing-42')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 404, body: { status: 404, title: 'Not Found' } });
  });

  it('token-authenticated libraries want sha256(accessKey + videoId + expires) and a future expiry', async () => {
    const { sim, urls } = await start({ tokenAuthLibraries: [9] });
    const client = clientFor(urls, undefined);
    const expires = Math.floor(NOON / 1000) + 3600;
    const token = videoToken(sim.accessKey, 'clip', expires);
    const play = await client.videoPlayData(9, 'clip', { token, expires });
    expect(play.tokenAuthEnabled).toBe(true);
    await expect(client.videoPlayData(9, 'clip')).rejects.toBeInstanceOf(AuthError);
    await expect(client.videoPlayData(9, 'clip', { token, expires: expires + 1 })).rejects.toMatchObject({
      status: 401,
      body: { statusCode: 401 },
    });
    const past = Math.floor(NOON / 1000) - 1;
    const expired = videoToken(sim.accessKey, 'clip', past);
    await expect(client.videoPlayData(9, 'clip', { token: expired, expires: past })).rejects.toBeInstanceOf(
      AuthError,
    );
    expect((await client.videoPlayData(8, 'clip')).tokenAuthEnabled).toBe(false);
  });
});
