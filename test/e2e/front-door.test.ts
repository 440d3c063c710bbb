// Issue 30's walk: the README's front door on a fresh clone of what is committed, each command taken from
// the README (and from what the demo and `init` print for the user to type next) and run as a newcomer
// types it, `npx` included, in a shell in the clone. Any command that fails fails the walk; a README line
// the walk cannot run (a placeholder with no value, a new kind of command) fails it too.
//
// Install: the clone's node_modules is a hard-linked copy of this checkout's (the tree package-lock.json
// gives). `npm ci --offline` would rebuild the SQLite addon from source (there is no prebuilt download
// here: minutes on two busy cores) and needs every package in the npm cache. What `npm ci` runs last,
// `prepare` (the build of the clone's own sources), is not run apart: the first `npx edgelog` installs
// the clone into npx's cache as a link and runs that same `prepare` (seen: its log says so), so the demo
// fails if the clone does not build; running it twice would double the walk's longest step. npm runs
// offline with a cache of the walk's own, so `npx edgelog` can only mean the clone (never a registry's
// package of that name), and the npx cache entry goes away with the clone.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { childEnv } from '../support/cli.js';
import { until } from '../support/until.js';
import { fillIn, printedCommands, readmeCommands, stepOf, type Fill } from '../readme/front-door.js';
import { groupGone, shell, type Shell } from '../support/shell.js';

const run = promisify(execFile);
const REPO = new URL('../..', import.meta.url).pathname;

describe('the README front door on a fresh clone', () => {
  let dir: string;
  let clone: string;
  let redis: EmbeddedRedis;
  const started: Shell[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-front-door-'));
    clone = join(dir, 'edgelog');
    // The demo's Redis prefix is fixed, and the configuration `init` writes keeps the default one: on
    // the test run's shared Redis they would meet other runs' keys. A redis-server of the walk's own.
    redis = await startRedisServer({ dir: join(dir, 'redis') });
    // A clone of this checkout's HEAD: a worktree's clone would check out the main repository's branch.
    const { stdout: head } = await run('git', ['-C', REPO, 'rev-parse', 'HEAD']);
    await run('git', ['clone', '--quiet', '--shared', '--no-checkout', REPO, clone]);
    await run('git', ['-C', clone, 'checkout', '--quiet', '--detach', head.trim()]);
  });
  afterAll(async () => {
    for (const s of started.splice(0)) await s.kill();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every command it shows, in order, and each succeeds', async () => {
    const readme = readmeCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
    const env: NodeJS.ProcessEnv = childEnv({
      REDIS_URL: redis.display,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
    });
    const failures: string[] = [];
    const ran: string[] = [];
    /** Runs a command as typed in a shell in `cwd`; a failure is recorded with what it printed. */
    const type = async (command: string, extra: NodeJS.ProcessEnv = {}) => {
      const s = shell(command, { cwd: clone, env: { ...env, ...extra } });
      started.push(s);
      const r = await s.done;
      ran.push(command);
      if (r.code !== 0)
        failures.push(`${command}: exit ${r.code ?? r.signal}\n${(r.stdout + r.stderr).slice(-2000)}`);
      return r;
    };

    // 1. Install, as the opening block says (npm ci first: everything after needs it).
    expect(readme[0]).toBe('npm ci');
    await run('cp', ['-al', join(REPO, 'node_modules'), join(clone, 'node_modules')]);

    // 2. The demo, and what it prints to type next.
    const demoCommand = readme.find((c) => /^npx edgelog demo( |$)/.test(c));
    expect(demoCommand, 'the README shows `npx edgelog demo`').toBeDefined();
    const demo = await type(demoCommand!);
    expect(demo.stdout).toMatch(/^Sample alert rule origin-5xx-spike on zone 101: /m);
    const commands = [...readme.filter((c) => c !== 'npm ci' && c !== demoCommand)];
    commands.push(...printedCommands(demo.stdout));

    // 3. The simulator on the README's fixed port, moved to a free one (8080 may be taken here): every
    // address with that port moves with it.
    const simulate = commands.find((c) => stepOf(c).kind === 'simulator');
    expect(simulate, 'the README shows the simulator on a fixed port').toBeDefined();
    const readmePort = (stepOf(simulate!) as { port: number }).port;
    const port = await freePort();
    const today = dayOf(Date.now());
    const fill: Fill = {
      [`--port ${readmePort}`]: `--port ${port}`,
      [`127.0.0.1:${readmePort}`]: `127.0.0.1:${port}`,
      '<the day before yesterday>': addDays(today, -2),
      '<today>': today,
      '<id>': '101',
      // The README: "the simulator's key is `sim-access-key`".
      'EDGELOG_ACCESS_KEY=…': 'EDGELOG_ACCESS_KEY=sim-access-key',
    };
    const sim = shell(fillIn(simulate!, fill), { cwd: clone, env });
    started.push(sim);
    await until('the simulator listening', () =>
      Promise.resolve(sim.output().stderr.includes('listening on') ? true : undefined),
    );
    ran.push(simulate!);

    // 4. The configuration pointed at it, and what `init` prints to type next.
    const init = commands.find((c) => c.startsWith('npx edgelog init ') && c.includes('--simulator'));
    expect(init, 'the README shows `init --simulator`').toBeDefined();
    const wrote = await type(fillIn(init!, fill));
    commands.push(...printedCommands(wrote.stdout));

    // 5. The rest in order: variables set, each command once, `run` last.
    // Filled before they are told apart: the README's sync and the one init prints are the same line.
    const rest = [
      ...new Set(commands.filter((c) => c !== simulate && c !== init).map((c) => fillIn(c, fill))),
    ];
    const runCommands: string[] = [];
    for (const filled of rest) {
      const step = stepOf(filled);
      if (step.kind === 'env') env[step.name] = step.value;
      else if (step.kind === 'long-running') runCommands.push(filled);
      else if (step.kind === 'aside') {
        // A configuration for the README's example zones, written where it cannot replace the walk's
        // (in the clone all the same: elsewhere `npx edgelog` would be the registry's package).
        const aside = join(mkdtempSync(join(dir, 'aside-')), 'edgelog.config.json');
        await type(filled, { EDGELOG_CONFIG: aside });
        expect(existsSync(aside), filled).toBe(true);
      } else if (step.kind === 'once') {
        const r = await type(filled);
        // A failed sync is in `failures` with what it printed; one that ran must have fetched every day.
        if (r.code === 0 && filled.startsWith('npx edgelog sync ')) expect(r.stdout).toMatch(/ 0 failed in /);
      } else throw new Error(`a second ${step.kind} step: ${filled}`);
    }
    expect(env.EDGELOG_ACCESS_KEY).toBe('sim-access-key');

    // 6. The worker, stopped as a terminal's Ctrl-C stops it: SIGINT to the whole process group.
    expect(runCommands).toEqual(['npx edgelog run']);
    const worker = shell(runCommands[0]!, { cwd: clone, env });
    started.push(worker);
    await until(
      'the worker running',
      () =>
        Promise.resolve(
          /"msg":"worker running"/.test(worker.output().stderr + worker.output().stdout) || undefined,
        ),
      60_000,
    );
    worker.signalGroup('SIGINT');
    // The shell and npm end on the signal (a terminal shows 130); the worker stops cleanly, and nothing
    // of the line is left.
    const stopped = await worker.done;
    ran.push(runCommands[0]!);
    if (!/"msg":"stopped"/.test(stopped.stdout + stopped.stderr))
      failures.push(
        `npx edgelog run, Ctrl-C: the worker did not stop cleanly\n${stopped.stderr.slice(-2000)}`,
      );
    await until(
      'nothing of the worker left',
      () => Promise.resolve(groupGone(worker.pid) || undefined),
      15_000,
    );

    expect(failures).toEqual([]);
    // The walk took what it was meant to: the steps the issue names, each from the README or a hint.
    for (const verb of ['demo', 'simulate', 'init', 'sync', 'status', 'query', 'report', 'run'])
      expect(
        ran.some((c) => c.startsWith(`npx edgelog ${verb}`)),
        verb,
      ).toBe(true);
  }, 240_000);
});
