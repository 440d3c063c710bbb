// `edgelog run` shows that it lives: on a terminal (a pseudo-terminal, util-linux `script`), a quiet line
// redrawn in place (last pass, next pass, today's entries, alerts firing) once it has caught up, and no
// JSON; off a terminal, the JSON log lines alone. Ctrl-C on the terminal stops it, the line cleared.
import { afterEach, describe, expect, it } from 'vitest';
import { clearOfMidnight } from '../fault/lib/clock.js';
import { killLeftOver, startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { screenLines, startOnTerminal } from '../support/terminal.js';
import { waitFor } from '../fault/lib/wait.js';

const TEST_MS = 90_000;
const LINE =
  /worker running · last pass \d\d:\d\d:\d\d · next pass \d\d:\d\d:\d\d · today [1-9][\d,]* entries · 0 alerts firing/;

let h: Harness;
const children: StartedCli[] = [];
afterEach(async () => {
  await killLeftOver(children);
  await h?.close();
});

/** A configuration on the real clock (run plans from it, and the simulator agrees what today is). */
async function setUp(): Promise<string> {
  await clearOfMidnight(TEST_MS);
  h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
  return writeConfig(h.dir, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    metrics: { listen: '127.0.0.1:0' },
    database: { path: h.dbPath },
    pullZones: [101],
    shieldZones: [201],
    schedule: { originLookbackDays: 1, shieldLookbackDays: 1 },
    worker: { shutdownTimeout: '3s' },
  });
}

describe('edgelog run', () => {
  it(
    'on a terminal: one quiet line redrawn in place once caught up; Ctrl-C stops it',
    async () => {
      const config = await setUp();
      const run = startOnTerminal(['--config', config, 'run'], { cwd: h.dir, env: { NO_COLOR: '1' } });
      try {
        await run.waitFor(LINE, 60_000);
      } finally {
        run.type('\x03');
      }
      const { code, raw } = await run.done;
      expect(code).toBe(0);
      // Redrawn in place: carriage returns, never a line of its own in the scrollback.
      expect(screenLines(raw).filter((l) => LINE.test(l))).toEqual([]);
      expect(raw).not.toContain('{"level"');
    },
    TEST_MS,
  );

  it(
    'off a terminal: the JSON log lines, and no status line',
    async () => {
      const config = await setUp();
      const run = startCli(['--config', config, 'run'], { cwd: h.dir });
      children.push(run);
      await waitFor(
        'the worker to run and a day pass to end',
        () => (/"msg":"day fetched"/.test(run.output().stderr) ? true : undefined),
        { timeoutMs: 60_000 },
      );
      // Longer than the line's interval: it would have been drawn by now.
      await new Promise((r) => setTimeout(r, 6_000));
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('"msg":"worker running"');
      expect(result.stderr).not.toContain('last pass');
      expect(result.stdout).toBe('');
    },
    TEST_MS,
  );
});
