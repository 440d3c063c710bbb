// Runs the built CLI (bin/edgelog.js → dist/) as a user does, in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigInput } from '../../src/config/index.js';

export const BIN = fileURLToPath(new URL('../../bin/edgelog.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  /** Variables for the child, over the cleaned environment of this process (see childEnv). */
  env?: NodeJS.ProcessEnv;
  /** Run the child as this user and group (only a root test run can). */
  uid?: number;
  gid?: number;
  /** `ulimit -f`: the largest file the child may write, in 512-byte blocks. */
  fileSizeBlocks?: number;
  /** The child's umask, e.g. 0o022 (what a login shell usually has). */
  umask?: number;
  /** What the child reads on stdin. @defaultValue nothing (/dev/null) */
  input?: string;
}

/**
 * This process's environment without the variables edgelog reads (EDGELOG_*, REDIS_URL, npm_command: under
 * `npx vitest` the hints would say `npx edgelog`), so that a
 * shell's settings never reach a test's child: only what the test sets does.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('EDGELOG_') && name !== 'REDIS_URL' && name !== 'npm_command') env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Writes a configuration file and returns its path. A PostgreSQL archive's configuration names its
 * history (config/history-path.ts): `<dir>/history` unless the test gives one.
 */
export function writeConfig(dir: string, config: ConfigInput, name = 'edgelog.config.json'): string {
  const path = join(dir, name);
  // `config` may be anything a test writes (null included: the configuration errors' tests).
  const history =
    config?.database?.url && config.history?.path === undefined
      ? { history: { ...config.history, path: join(dir, 'history') } }
      : {};
  const text = config === null ? null : { ...config, ...history };
  writeFileSync(path, JSON.stringify(text, null, 2));
  return path;
}

export interface StartedCli {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** What the child has written so far. */
  output(): { stdout: string; stderr: string };
}

export function startCli(args: string[], opts: CliOptions): StartedCli {
  const argv = [process.execPath, BIN, ...args];
  // `ulimit` and `umask` need a shell; `exec` keeps the pid the test signals the CLI's own.
  const shell = [
    ...(opts.fileSizeBlocks === undefined ? [] : [`ulimit -f ${opts.fileSizeBlocks}`]),
    ...(opts.umask === undefined ? [] : [`umask ${opts.umask.toString(8).padStart(3, '0')}`]),
  ];
  const [file, ...rest] =
    shell.length === 0 ? argv : ['/bin/sh', '-c', `${shell.join(' && ')} && exec "$0" "$@"`, ...argv];
  const child = spawn(file!, rest, {
    cwd: opts.cwd,
    env: childEnv(opts.env),
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
  });
  if (opts.input !== undefined) child.stdin?.end(opts.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, output: () => ({ stdout, stderr }) };
}

/**
 * Ends the children a test started and left running (a failed wait): killed, not left to hold the
 * archive and Redis; each awaited. Empties `children`.
 */
export async function killLeftOver(children: StartedCli[]): Promise<void> {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await c.done;
  }
}

export function runCli(args: string[], opts: CliOptions): Promise<CliResult> {
  return startCli(args, opts).done;
}

const NOBODY = 65534;
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const ROOT = process.getuid?.() === 0;
/** Why the tests that run the CLI as `nobody` cannot run here; '' when they can. */
export const NOBODY_SKIP =
  ROOT && SETPRIV === undefined ? 'skipped: no setpriv to run the CLI as an unprivileged user' : '';

/**
 * The built CLI, as `nobody` when the tests run as root (root ignores file permissions), as the current
 * user otherwise.
 */
export function runCliAsNobody(args: string[], cwd: string): Promise<CliResult> {
  const argv = [process.execPath, BIN, ...args];
  const [cmd, ...rest] = ROOT
    ? [SETPRIV!, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...argv]
    : argv;
  const child = spawn(cmd!, rest, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}
