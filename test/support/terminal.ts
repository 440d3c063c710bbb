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

export interface TerminalOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The terminal's width. @defaultValue none set (0) */ columns?: number;
}

/** The built CLI under util-linux `script`, its pseudo-terminal on stdin, stdout and stderr. */
function spawnOnTerminal(args: string[], opts: TerminalOptions, stdin: 'ignore' | 'pipe') {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cli = `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const command = opts.columns ? `stty cols ${Math.trunc(opts.columns)} rows 50 && ${cli}` : cli;
  const env = opts.env ?? {};
  return spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: opts.cwd,
    env: childEnv({ ...env, NO_COLOR: env.NO_COLOR ?? '' }),
    stdio: [stdin, 'pipe', 'inherit'],
  });
}

/**
 * Runs the built CLI with a pseudo-terminal on stdin, stdout and stderr (util-linux `script`), as a
 * person at a terminal runs it; returns what the terminal was sent. NO_COLOR is off unless given.
 */
export function onTerminal(args: string[], opts: TerminalOptions): Promise<TerminalRun> {
  const child = spawnOnTerminal(args, opts, 'ignore');
  let raw = '';
  child.stdout!.on('data', (d: Buffer) => (raw += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, raw, screen: raw.replace(/\r/g, '') })),
  );
}

export interface TerminalSession {
  /** Sends keys, as typed (one call, one read by the program: a lone Tab is a Tab key, not pasted text). */
  type(keys: string): void;
  /** Resolves once the terminal has been sent `text` since the last wait (or the start). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** What the terminal was sent so far, carriage returns removed. */
  screen(): string;
  done: Promise<TerminalRun>;
}

/** The built CLI on a pseudo-terminal a test types into, as a person at it would (see onTerminal). */
export function startOnTerminal(args: string[], opts: TerminalOptions): TerminalSession {
  const child = spawnOnTerminal(args, opts, 'pipe');
  let raw = '';
  let seen = 0;
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    raw += d.toString();
    for (const w of [...waiters]) w();
  });
  const done = new Promise<TerminalRun>((resolve) =>
    child.on('close', (code) => resolve({ code, raw, screen: raw.replace(/\r/g, '') })),
  );
  return {
    type: (keys) => void child.stdin!.write(keys),
    screen: () => raw.replace(/\r/g, ''),
    done,
    waitFor(text, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const rest = raw.slice(seen).replace(/\r/g, '');
          const at = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
          if (at < 0) return;
          waiters.delete(check);
          clearTimeout(timer);
          seen = raw.length;
          resolve(rest);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal never showed ${String(text)}; it showed:\n${raw.slice(seen)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
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
