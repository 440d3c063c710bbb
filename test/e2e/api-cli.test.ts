// `edgelog api …` as a user runs it: every operation against the simulator, errors as one clear line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
let config: string;
beforeAll(async () => {
  h = await harness({
    entriesPerDay: 250,
    pageSize: 100,
    faults: [{ kind: 'loop', afterPage: 2, operation: 'shieldEventLogs' }],
  });
  config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms' },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
  });
});
afterAll(async () => h?.close());

const api = (...args: string[]) => runCli(['--config', config, 'api', ...args], { cwd: h.dir });

describe('edgelog api', () => {
  it.each([
    [
      ['video-play-data', '7', 'abc-123'],
      (j: Record<string, unknown>) => expect(j).toHaveProperty('isPlayable'),
    ],
    [
      ['origin-errors', '101', TODAY],
      (j: Record<string, unknown>) =>
        expect((j.logs as unknown[]).length).toBe(h.sim.count('origin', 101, TODAY)),
    ],
    [['edge-script', '5'], (j: Record<string, unknown>) => expect(j.Id).toBe(5)],
    [
      ['api-guardian', '201'],
      (j: Record<string, unknown>) => expect(j).toHaveProperty('data.totalBlockedRequests'),
    ],
    [['ddos-enums'], (j: Record<string, unknown>) => expect(Array.isArray(j.data)).toBe(true)],
    [
      ['event-logs', '201', TODAY],
      (j: Record<string, unknown>) => expect(j).toMatchObject({ hasMoreData: true }),
    ],
    [['rate-limit', '9'], (j: Record<string, unknown>) => expect(j.id).toBe(9)],
  ])('%j prints the validated JSON', async (args, check) => {
    const r = await api(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    check(JSON.parse(r.stdout) as Record<string, unknown>);
  });

  it('accepts MM-dd-yyyy dates too', async () => {
    const [y, m, d] = TODAY.split('-');
    const r = await api('origin-errors', '101', `${m}-${d}-${y}`);
    expect(r.code).toBe(0);
  });

  it.each([
    [['origin-errors', '101', '2026-02-30'], /"2026-02-30" is not a real calendar day/],
    [['edge-script', 'abc'], /expected a positive integer id/],
    [
      ['event-logs', '201', addDays(TODAY, -6)],
      /HTTP 401 invalid_datetime_window\.event_logs.*retention window/,
    ],
    [['api-guardian', '999'], /not_found_or_unauthorised_access\.shieldzone/],
    [['event-logs', '201', TODAY, '--all'], /continuation token repeats after page 2/],
    [
      ['rate-limit', '5000'],
      /^edgelog: rate limit 5000 was not found \(check the id\): http:\S+: HTTP 404\b/m,
    ],
    [
      ['edge-script', '5000'],
      /^edgelog: edge script 5000 was not found \(check the id\): http:\S+: HTTP 404\b/m,
    ],
    [
      ['origin-errors', '999', TODAY],
      /^edgelog: pull zone 999 was not found \(check the id\): http:\S+: HTTP 404\b/m,
    ],
    [['video-play-data', '7', 'missing-video'], /HTTP 404/],
  ])('%j fails with one clear line and a non-zero exit', async (args, message) => {
    const r = await api(...args);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2); // the line (and commander's usage hint)
    expect(r.stderr).not.toContain(h.sim.accessKey);
  });

  it('a wrong access key is reported as such, and the key never appears in the output', async () => {
    const bad = writeConfig(h.dir, { api: { ...h.urls, accessKey: 'not-the-key-123' } }, 'bad.json');
    const r = await runCli(['--config', bad, 'api', 'edge-script', '5'], { cwd: h.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 401.*check the access key/);
    expect(r.stderr).not.toContain('not-the-key-123');
  });
});
