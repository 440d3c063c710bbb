// What a terminal shows: the characters a terminal would act on, and a tiny screen model of the
// carriage returns and line feeds a command writes (enough to see what a redrawn line leaves behind).
import { spawn } from 'node:child_process';
import { BIN, childEnv } from './cli.js';

/** Any character a terminal acts on: C0 but the line feed, DEL, C1, and the bidirectional controls. */
export const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export interface TerminalRun {
  code: number | null;
  /** What the terminal received (stdout and stderr together), carriage returns removed. */
  screen: string;
  /** The same, as received, carriage returns included. */
  raw: string;
}

/**
 * Runs the built CLI with a pseudo-terminal on stdin, stdout and stderr (util-linux `script`), as a
 * person at a terminal runs it; returns what the terminal was sent. NO_COLOR is off unless given.
 */
export function onTerminal(
  args: string[],
  opts: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    /** The terminal's width. @defaultValue none set (0) */ columns?: number;
  },
): Promise<TerminalRun> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cli = `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const command = opts.columns ? `stty cols ${Math.trunc(opts.columns)} rows 50 && ${cli}` : cli;
  const env = opts.env ?? {};
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: opts.cwd,
    env: childEnv({ ...env, NO_COLOR: env.NO_COLOR ?? '' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let raw = '';
  child.stdout.on('data', (d: Buffer) => (raw += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, raw, screen: raw.replace(/\r/g, '') })),
  );
}

/**
 * The lines a terminal shows after `raw`: a carriage return moves back to the start of the line and
 * what follows overwrites it, a line feed ends it. (What a redrawn progress line leaves behind.)
 */
export function screenLines(raw: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (const ch of raw) {
    if (ch === '\n') {
      lines.push(line.join('').trimEnd());
      line = [];
      col = 0;
    } else if (ch === '\r') col = 0;
    else {
      line[col++] = ch;
    }
  }
  if (line.length > 0) lines.push(line.join('').trimEnd());
  return lines;
}
