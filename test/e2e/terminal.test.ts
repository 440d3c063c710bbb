// `edgelog sync` on a terminal, as a person sees it: the built CLI runs under a pseudo-terminal
// (util-linux `script`), so stderr is a TTY. It shows its summary and warnings only, as short lines; with
// --log-level info the info lines too. Its Redis is one of this test's own, set to allkeys-lru so that
// there is a warning to see (the run's shared Redis is left alone).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/redis/connection.js';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { addDays } from '../../src/time/utc-day.js';
import { writeConfig } from '../support/cli.js';
import { harness, TODAY, type Harness } from '../support/harness.js';
import { textWidth } from '../../src/format/terminal-text.js';
import { onTerminal as runOnTerminal, screenLines } from '../support/terminal.js';

let h: Harness;
let redis: EmbeddedRedis;
let config: string;

beforeAll(async () => {
  h = await harness({ entriesPerDay: 200, pageSize: 100 });
  redis = await startRedisServer({ dir: h.dir });
  const admin = new Redis(redisOptions(redis.target));
  await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
  admin.disconnect();
  config = writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redis.display, prefix: h.prefix, embedded: false },
    database: { path: h.dbPath },
    shieldZones: [201],
  });
});

afterAll(async () => {
  await redis?.stop();
  await h?.close();
});

/** Runs the CLI under a pseudo-terminal in this test's directory. */
const onTerminal = (args: string[], env: NodeJS.ProcessEnv = {}) => runOnTerminal(args, { cwd: h.dir, env });

const sync = () => ['--config', config, 'sync', '--source', 'shield', '--date', addDays(TODAY, -1)];

describe('edgelog sync on a terminal', () => {
  it('shows its progress on one redrawn line, and none with --no-progress', async () => {
    const slow = await harness({ entriesPerDay: 3_000, pageSize: 200, latencyMs: 120 });
    try {
      const file = writeConfig(
        slow.dir,
        {
          api: { ...slow.urls, accessKey: slow.sim.accessKey },
          redis: { url: redis.display, prefix: slow.prefix, embedded: false },
          database: { path: slow.dbPath },
          shieldZones: [201],
        },
        'slow.json',
      );
      const args = ['--config', file, 'sync', '--source', 'shield', '--date', addDays(TODAY, -1)];
      const shown = await onTerminal(args, { NO_COLOR: '1' });
      expect(shown.code).toBe(0);
      expect(shown.screen).toMatch(/zone-days 0\/1 · \d+ pages? · [\d,]+ entr(y|ies)/);
      expect(shown.screen).not.toContain('\x1b[');
      const quiet = await onTerminal([...args, '--no-progress'], { NO_COLOR: '1' });
      expect(quiet.code).toBe(0);
      expect(quiet.screen).not.toContain('zone-days');
    } finally {
      await slow.close();
    }
  });

  it('shows its summary and the warnings, as short lines, without colour under NO_COLOR', async () => {
    const { code, screen } = await onTerminal(sync(), { NO_COLOR: '1' });
    expect(code).toBe(0);
    expect(screen).toMatch(/^shield +201 +\d{4}-\d\d-\d\d +complete/m);
    expect(screen).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}Redis at redis:\/\/127\.0\.0\.1:\d+ has maxmemory-policy allkeys-lru; .*CONFIG SET maxmemory-policy noeviction.* maxmemoryPolicy=allkeys-lru$/m,
    );
    expect(screen).not.toContain(' INFO ');
    expect(screen).not.toContain('{"level"');
    expect(screen).not.toContain('\x1b[');
  });

  it('--log-level info shows the info lines too, coloured', async () => {
    const { code, screen, raw } = await onTerminal(['--log-level', 'info', ...sync()]);
    expect(code).toBe(0);
    expect(screen).toContain('\x1b[32mINFO \x1b[0m ');
    // As the terminal shows it: the progress line, when drawn, is cleared before a log line.
    // eslint-disable-next-line no-control-regex
    const colour = /\x1b\[[\d;]*m/g;
    const plain = screenLines(raw).join('\n').replace(colour, '');
    expect(plain).toMatch(/^\d\d:\d\d:\d\d INFO {2}day fetched component=ingest source=shield zone=201 /m);
    expect(screen).not.toContain('{"level"');
  });
});

/** A configuration whose access key the API refuses. */
const wrongKey = () =>
  writeConfig(
    h.dir,
    {
      api: { ...h.urls, accessKey: 'not-the-key' },
      redis: { url: redis.display, prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      pullZones: [101, 102],
      shieldZones: [201, 202],
    },
    'wrong-key.json',
  );

describe('edgelog sync on a terminal, when it goes wrong', () => {
  it('retries are info lines counted in the summary; a warning clears the progress line, which is redrawn after', async () => {
    const faulty = await harness({
      entriesPerDay: 3_000,
      pageSize: 200,
      latencyMs: 100,
      // Every page's first request fails once; from page 6 on the API repeats its token (incomplete).
      faults: [
        { kind: '503', times: 1, operation: 'shieldEventLogs' },
        { kind: 'loop', afterPage: 6 },
      ],
    });
    try {
      const file = writeConfig(
        faulty.dir,
        {
          api: {
            ...faulty.urls,
            accessKey: faulty.sim.accessKey,
            retryBaseDelay: '10ms',
            retryMaxDelay: '20ms',
          },
          redis: { url: redis.display, prefix: faulty.prefix, embedded: false },
          database: { path: faulty.dbPath },
          shieldZones: [201],
        },
        'faulty.json',
      );
      const args = ['--config', file, 'sync', '--source', 'shield', '--date', addDays(TODAY, -1)];
      const { code, raw, screen } = await onTerminal(args, { NO_COLOR: '1' });
      expect(code).toBe(1);
      const lines = screenLines(raw);
      // The warning has a line of its own: the progress line was cleared before it, not written over.
      expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d WARN {2}day incomplete /));
      expect(lines.filter((l) => l.includes('zone-days') && l.includes('WARN'))).toEqual([]);
      expect(raw).toMatch(
        /WARN {2}day incomplete [^\n]*\n\rzone-days|WARN {2}day incomplete [^\n]*\nzone-days/,
      );
      // Routine retries are not warnings; the summary counts them.
      expect(screen).not.toContain('retrying');
      expect(screen).toMatch(/ in [\d.]+m?s; \d+ requests retried$/m);
    } finally {
      await faulty.close();
    }
  });

  it('a wrong access key: the table shows where, and the hint is said once, plainly, under it', async () => {
    const file = wrongKey();
    const args = ['--config', file, 'sync', '--date', addDays(TODAY, -1), '--no-progress'];
    const { code, screen } = await onTerminal(args, { NO_COLOR: '1' });
    expect(code).toBe(1);
    const lines = screen.split('\n');
    const rows = lines.filter((l) => /^(origin|shield) +\d+ +\d{4}-/.test(l));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/ failed .*HTTP 401/);
    // Said once, whole and plainly, under the table: what was refused and where to set the key.
    const summary = lines.slice(lines.indexOf(rows[0]!));
    expect(summary.filter((l) => /access key/i.test(l))).toEqual([
      `the API refused the access key on 4 days: check api.accessKey in ${file}, or the EDGELOG_ACCESS_KEY environment variable`,
    ]);
  });
});

describe('tables fit the terminal', () => {
  const widest = (raw: string, first: RegExp) => {
    const lines = screenLines(raw);
    const start = lines.findIndex((l) => first.test(l));
    expect(start).toBeGreaterThanOrEqual(0);
    // The table: from its header to the first empty line.
    const end = lines.indexOf('', start);
    return Math.max(...lines.slice(start, end < 0 ? undefined : end).map(textWidth));
  };

  it('status: the tables within the width (140 columns), the last errors cut; --wide shows them whole', async () => {
    const file = wrongKey();
    await onTerminal(['--config', file, 'sync', '--date', addDays(TODAY, -1), '--no-progress']);
    const narrow = await runOnTerminal(['--config', file, 'status'], { cwd: h.dir, columns: 140 });
    expect(narrow.code).toBe(0);
    expect(widest(narrow.raw, /^source +zone +newest entry/)).toBeLessThanOrEqual(140);
    expect(widest(narrow.raw, /^source +zone +day +state/)).toBeLessThanOrEqual(140);
    const rows = (screen: string) => screen.split('\n').filter((l) => /^origin +101 /.test(l));
    expect(rows(narrow.screen)).toEqual([expect.stringMatching(/…$/), expect.stringMatching(/…$/)]);
    const wide = await runOnTerminal(['--config', file, 'status', '--wide'], { cwd: h.dir, columns: 140 });
    expect(wide.code).toBe(0);
    expect(widest(wide.raw, /^source +zone +newest entry/)).toBeGreaterThan(140);
    expect(rows(wide.screen)).toEqual([
      expect.stringMatching(/ 2026-11-21: http:\S+: HTTP 401 \{"statusCode":401\} \(check the access key\)$/),
      expect.stringMatching(/ http:\S+: HTTP 401 \{"statusCode":401\} \(check the access key\)$/),
    ]);
  });

  it('query: the table within the width, long cells cut; --wide shows every cell whole', async () => {
    await onTerminal(sync());
    const sql = 'SELECT log_id, url, message, log FROM shield_event_logs ORDER BY timestamp, log_id LIMIT 3';
    const narrow = await runOnTerminal(['--config', config, 'query', sql], { cwd: h.dir, columns: 80 });
    expect(narrow.code).toBe(0);
    expect(widest(narrow.raw, /^log_id +url/)).toBeLessThanOrEqual(80);
    const wide = await runOnTerminal(['--config', config, 'query', sql, '--wide'], {
      cwd: h.dir,
      columns: 80,
    });
    expect(wide.code).toBe(0);
    expect(widest(wide.raw, /^log_id +url/)).toBeGreaterThan(300);
    expect(wide.screen).not.toContain('…');
  });
});
