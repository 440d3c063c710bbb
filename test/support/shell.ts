// A command line run as a person types it into a shell, in a process group of its own, as a terminal's
// job is: a signal to the group (a terminal's Ctrl-C) reaches every process the line started.
import { spawn } from 'node:child_process';
import type { CliResult } from './cli.js';

export interface Shell {
  /** The shell's pid, which is also its process group's id. */
  pid: number;
  done: Promise<CliResult>;
  /** What the line has written so far. */
  output(): { stdout: string; stderr: string };
  /** Sends `signal` to every process of the group, as a terminal does for Ctrl-C (SIGINT). */
  signalGroup(signal: NodeJS.Signals): void;
  /** Ends whatever of the group is left (SIGKILL) and waits for the shell: a test's cleanup. */
  kill(): Promise<void>;
}

/** True when no process of the group `pgid` is left. */
export function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw err;
  }
}

export function shell(command: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Shell {
  // detached: a session and process group of its own, led by the shell.
  const child = spawn('/bin/sh', ['-c', command], {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const pid = child.pid!;
  const signalGroup = (signal: NodeJS.Signals) => {
    if (!groupGone(pid)) process.kill(-pid, signal);
  };
  return {
    pid,
    done,
    output: () => ({ stdout, stderr }),
    signalGroup,
    async kill() {
      signalGroup('SIGKILL');
      await done;
    },
  };
}
