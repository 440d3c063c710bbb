// Runs the built CLI (bin/edgelog.js → dist/) as a user does, in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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

/** Writes a configuration file and returns its path. */
export function writeConfig(dir: string, config: ConfigInput, name = 'edgelog.config.json'): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export function startCli(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return startCli(args, opts).done;
}
