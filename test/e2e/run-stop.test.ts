// Issue 30: `edgelog run` stops however it was started. Each way a person or a service manager starts
// it, and each way it is told to stop: SIGTERM or SIGINT to the process that was started (npx and npm
// exec are npm's process, which used to end alone and leave the worker under PID 1), and SIGINT to the
// whole process group, as a terminal's Ctrl-C sends it. The worker must be gone within its
// shutdown timeout, after a clean stop ("stopped" logged), and nothing of what was started left.
//
// The project: a directory where edgelog is installed as `npm install <path to edgelog>` lays out a
// local package (node_modules/edgelog, a link to it, and node_modules/.bin/edgelog), so `npx edgelog`
// and `npm exec edgelog` find it there and npm is the real npm (offline: it has nothing to fetch). The
// tarball install of test/e2e/package.test.ts gives the same bin file, but takes minutes.
// systemd cannot run here (PID 1 is not systemd): its case starts the unit's ExecStart line and stops it
// as the unit's KillMode=mixed and KillSignal=SIGTERM do (SIGTERM to the main process only).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { groupGone } from '../support/shell.js';
import { until } from '../support/until.js';

const REPO = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
/** worker.shutdownTimeout's default: the bound the docs promise for a stop. */
const SHUTDOWN_TIMEOUT_MS = 20_000;

let h: Harness;
let project: string;
let env: NodeJS.ProcessEnv;
const groups: number[] = [];

beforeAll(async () => {
  h = await harness({ now: Date.now, entriesPerDay: 50 });
  project = join(h.dir, 'project');
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'ops', private: true, dependencies: { edgelog: `file:${REPO}` } }),
  );
  symlinkSync(REPO, join(project, 'node_modules', 'edgelog'));
  symlinkSync('../edgelog/bin/edgelog.js', join(project, 'node_modules', '.bin', 'edgelog'));
  writeConfig(project, {
    api: { ...h.urls, accessKey: h.sim.accessKey },
    redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
    database: { path: join(h.dir, 'edgelog.db') },
    shieldZones: [201],
    metrics: { listen: null },
  });
  env = childEnv({
    npm_config_cache: join(h.dir, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  });
});
afterAll(async () => {
  for (const pgid of groups.splice(0)) if (!groupGone(pgid)) process.kill(-pgid, 'SIGKILL');
  await h?.close();
});

/** The unit's ExecStart, as docs/OPERATIONS.md adjusts it: this node, edgelog where it is installed. */
function unitExecStart(): string[] {
  const unit = readFileSync(join(REPO, 'deploy', 'edgelog.service'), 'utf8');
  const line = /^ExecStart=(.*)$/m.exec(unit)![1]!;
  return line.replaceAll('/usr/bin/node', process.execPath).replaceAll('/opt/edgelog', REPO).split(' ');
}

const WAYS = {
  'npx edgelog run': () => ['npx', 'edgelog', 'run'],
  'npm exec edgelog run': () => ['npm', 'exec', 'edgelog', 'run'],
  'the installed bin': () => [join(project, 'node_modules', '.bin', 'edgelog'), 'run'],
  "systemd's ExecStart": unitExecStart,
} as const;

type To = 'process' | 'group';
const CASES: Array<[keyof typeof WAYS, NodeJS.Signals, To]> = [
  ['npx edgelog run', 'SIGTERM', 'process'],
  ['npx edgelog run', 'SIGINT', 'group'],
  ['npm exec edgelog run', 'SIGTERM', 'process'],
  ['npm exec edgelog run', 'SIGINT', 'group'],
  ['the installed bin', 'SIGTERM', 'process'],
  ['the installed bin', 'SIGINT', 'process'],
  ['the installed bin', 'SIGINT', 'group'],
  ["systemd's ExecStart", 'SIGTERM', 'process'],
];

/** How long a SIGINT to npm alone is watched doing nothing. */
const IGNORED_FOR_MS = 5_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a way, in a process group of its own led by what was started (a terminal's job, a unit). */
async function start(way: keyof typeof WAYS) {
  const [file, ...args] = WAYS[way]();
  const started = spawn(file!, args, {
    cwd: project,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = started.pid!;
  groups.push(pgid);
  let log = '';
  started.stdout.on('data', (d: Buffer) => (log += d.toString()));
  started.stderr.on('data', (d: Buffer) => (log += d.toString()));
  // The worker's pid from its own line: under npx and npm exec it is npm's grandchild.
  const worker = await until(
    'the worker running',
    () => {
      const line = log.split('\n').find((l) => l.includes('"msg":"worker running"'));
      return Promise.resolve(line ? (JSON.parse(line) as { pid: number }).pid : undefined);
    },
    60_000,
  );
  return { pgid, worker, log: () => log };
}

/** Sends `signal`, then checks the worker stopped cleanly within its shutdown timeout, leaving nothing. */
async function stopsCleanly(
  run: Awaited<ReturnType<typeof start>>,
  signal: NodeJS.Signals,
  to: To,
): Promise<void> {
  const signalled = Date.now();
  process.kill(to === 'group' ? -run.pgid : run.pgid, signal);
  await until('the worker gone', () => Promise.resolve(alive(run.worker) ? undefined : true), 30_000);
  const took = Date.now() - signalled;
  await until('nothing of it left', () => Promise.resolve(groupGone(run.pgid) || undefined), 10_000);
  expect(took, run.log()).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
  // A clean stop, not a kill nor a second signal's exit at once.
  expect(run.log()).toMatch(/"msg":"stopping: finishing the pages and deliveries in hand"/);
  expect(run.log()).toMatch(/"msg":"stopped"/);
}

describe('edgelog run stops however it was started', () => {
  it.each(CASES)(
    '%s, %s to the %s',
    async (way, signal, to) => stopsCleanly(await start(way), signal, to),
    90_000,
  );

  // npm hands a SIGINT on to its `sh -c`, which waits for the worker (a shell leaves SIGINT to the job
  // in the foreground, which a terminal's Ctrl-C reaches); so npm, its shell and the worker all go on.
  // The README says so and steers scripts and supervisors to SIGTERM or to bin/edgelog.js: this pins
  // what it says, and that the SIGTERM then stops everything.
  it.each(['npx edgelog run', 'npm exec edgelog run'] as const)(
    '%s, SIGINT to npm alone: npm keeps it running (the README says so); a SIGTERM then stops it',
    async (way) => {
      const run = await start(way);
      process.kill(run.pgid, 'SIGINT');
      await sleep(IGNORED_FOR_MS);
      expect(alive(run.worker)).toBe(true);
      expect(run.log()).not.toContain('"msg":"stopping');
      await stopsCleanly(run, 'SIGTERM', 'process');
    },
    90_000,
  );
});
