// `npx edgelog run` (npm exec): a SIGTERM to npx ends npm and its shell but never reaches the worker,
// which used to keep running under PID 1. Here the same chain without npm (a parent process that starts
// the built CLI and is killed), with npm_command=exec as npm sets it: the worker stops as on SIGTERM,
// and no process is left behind.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, childEnv, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { until } from '../support/until.js';

let h: Harness;
afterEach(async () => h?.close());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('edgelog run started by npx', () => {
  it('stops when npm is gone, as on SIGTERM', async () => {
    h = await harness({ now: Date.now, entriesPerDay: 50 });
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      shieldZones: [201],
      metrics: { listen: null },
    });
    // npm's place: a process that starts the worker (its log to a file: a pipe would break with its
    // reader, and the worker with it), prints its pid, and waits until killed below.
    const logPath = join(h.dir, 'run.log');
    const starter = [
      "const { spawn } = require('node:child_process');",
      "const { openSync } = require('node:fs');",
      `const log = openSync(${JSON.stringify(logPath)}, 'w');`,
      `const w = spawn(process.execPath, ${JSON.stringify([BIN, '--config', config, 'run'])}, { stdio: ['ignore', log, log] });`,
      "process.stdout.write(w.pid + '\\n');",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const npm = spawn(process.execPath, ['-e', starter], {
      cwd: h.dir,
      env: childEnv({ npm_command: 'exec' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
    const pid = await until('the worker started', () => {
      const m = /^(\d+)\n/.exec(out);
      return Promise.resolve(m ? Number(m[1]) : undefined);
    });
    try {
      await until('the worker running', () =>
        Promise.resolve(log().includes('"msg":"worker running"') ? true : undefined),
      );
      npm.kill('SIGKILL');
      // Before: the worker went on under PID 1 until killed.
      await until('the worker gone', () => Promise.resolve(alive(pid) ? undefined : true), 30_000);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
    // A clean stop for that reason, not a crash.
    expect(log()).toContain('"signal":"parent gone"');
    expect(log()).toContain('"msg":"stopped"');
  }, 60_000);
});
