// `edgelog simulate` as the CLI runs it: options in, config snippet out, served until told to stop.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { simulateCommand, simulatorOptions } from '../../src/commands/simulate.js';
import { request } from 'undici';
import { addDays, dayOf, toApiDate } from '../../src/time/utc-day.js';
import { clientFor, closeAfterEach } from './helpers.js';

closeAfterEach();

interface Snippet {
  api: { baseUrl: string; originLogUrl: string; videoUrl: string; accessKey: string };
  pullZones: number[];
  shieldZones: number[];
}

function documented(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { logId, timestamp, log, labels } = e as Record<string, unknown>;
  return (
    Object.keys(e).length === 4 &&
    typeof logId === 'string' &&
    logId !== '' &&
    Number.isSafeInteger(timestamp) &&
    (timestamp as number) > 0 &&
    typeof log === 'string' &&
    typeof labels === 'object' &&
    labels !== null &&
    Object.values(labels).every((v) => typeof v === 'string')
  );
}

function run(args: string[]) {
  let release!: () => void;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  let print!: (text: string) => void;
  const printed = new Promise<string>((resolve) => (print = resolve));
  const status: string[] = [];
  const done = simulateCommand({ out: print, err: (t) => status.push(t), stop: () => stopped })
    .exitOverride()
    .configureOutput({ writeErr: (t) => status.push(t) })
    .parseAsync(args, { from: 'user' });
  return { printed, status, done, stop: release };
}

describe('edgelog simulate', () => {
  it('prints the config snippet, serves what it was asked, and stops cleanly', async () => {
    const cli = run([
      '--port',
      '0',
      '--seed',
      '4',
      '--entries',
      '120',
      '--page-size',
      '50',
      '--shield-zones',
      '301,302',
      '--access-key',
      'trial-key',
      '--fault',
      '503:times=1,operation=shieldEventLogs',
    ]);
    const snippet = JSON.parse(await cli.printed) as Snippet;
    expect(snippet.api.accessKey).toBe('trial-key');
    expect(snippet.api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(new URL(snippet.api.baseUrl).port).not.toBe('0');
    expect(snippet.pullZones).toEqual([101, 102, 103]);
    expect(snippet.shieldZones).toEqual([301, 302]);

    const client = clientFor(snippet.api, snippet.api.accessKey);
    const day = addDays(dayOf(Date.now()), -1); // the command runs on the real clock
    const page = await client.shieldEventLogs(302, day);
    expect(page.logs).toHaveLength(50);
    expect(page.hasMoreData).toBe(true);

    cli.stop();
    await cli.done;
    expect(cli.status.join('')).toMatch(/stopped after 2 requests, 50 entries served/);
    await expect(client.ddosEnums()).rejects.toMatchObject({ name: 'NetworkError' });
  });

  it('takes the odd-entry, echo-key and dot-token knobs and the new fault kinds', async () => {
    const cli = run([
      '--echo-key',
      '--dot-tokens',
      '--odd-entry-rate',
      '1',
      '--page-size',
      '10',
      '--fault',
      'html:operation=ddosEnums,times=1',
    ]);
    const snippet = JSON.parse(await cli.printed) as Snippet;
    const day = toApiDate(addDays(dayOf(Date.now()), -1));
    const get = async (path: string, key: string) => {
      const res = await request(`${snippet.api.baseUrl}${path}`, { headers: { AccessKey: key } });
      return { type: res.headers['content-type'], text: await res.body.text() };
    };
    try {
      expect((await get('/shield/ddos/enums', snippet.api.accessKey)).type).toMatch(/^text\/html/);
      expect((await get('/shield/ddos/enums', 'not-the-key')).text).toContain('AccessKey: not-the-key');
      const page = JSON.parse((await get(`/shield/event-logs/201/${day}/`, snippet.api.accessKey)).text) as {
        logs: unknown[];
        continuationToken: string;
      };
      expect(page.continuationToken).toBe('.');
      // Every entry odd: none is the documented object of a string logId, integer timestamp, string log and string labels.
      expect(page.logs).toHaveLength(10);
      expect(page.logs.filter(documented)).toEqual([]);
    } finally {
      cli.stop();
      await cli.done;
    }
  });

  it.each([
    [['--fault', '404'], /unknown kind "404"/],
    [['--fault', 'loop:times=x'], /times must be a whole number/],
    [['--fault', 'slow-body:chunks=0'], /chunks must be at least 1/],
    [['--odd-entry-rate', '2'], /from 0 to 1/],
    [['--malformed-rate', '1.5'], /from 0 to 1/],
    [['--page-size', '0'], /positive integer/],
    [['--shield-zones', '1,x'], /positive integer id/],
  ])('rejects %j', async (args, message) => {
    const cli = run(args);
    const err = await cli.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommanderError);
    expect(cli.status.join('')).toMatch(message);
  });

  it('a port in use is said plainly, naming the option to change', async () => {
    const first = run(['--port', '0']);
    const port = new URL((JSON.parse(await first.printed) as Snippet).api.baseUrl).port;
    try {
      const second = run(['--port', port]);
      await expect(second.done).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the address is in use (another simulator?): pick another --port, or 0 for a free one`,
      );
    } finally {
      first.stop();
      await first.done;
    }
  });

  it('maps options onto the simulator, keeping its defaults for what is not given', () => {
    expect(simulatorOptions({ port: 0, host: '127.0.0.1', fault: [] })).toEqual({ faults: [] });
    expect(
      simulatorOptions({
        port: 0,
        host: '::1',
        seed: 3,
        entries: 10,
        pageSize: 5,
        malformedRate: 0.25,
        latency: 7,
        pullZones: [1],
        shieldZones: [2],
        tokenAuthLibraries: [3],
        accessKey: 'k',
        oddEntryRate: 0.1,
        echoKey: true,
        dotTokens: true,
        fault: [{ kind: 'reset' }, { kind: 'slow-body', chunks: 4 }],
      }),
    ).toEqual({
      seed: 3,
      entriesPerDay: 10,
      pageSize: 5,
      malformedRate: 0.25,
      latencyMs: 7,
      pullZones: [1],
      shieldZones: [2],
      tokenAuthLibraries: [3],
      accessKey: 'k',
      oddEntryRate: 0.1,
      echoKey: true,
      dotTokens: true,
      faults: [{ kind: 'reset' }, { kind: 'slow-body', chunks: 4 }],
    });
  });
});
