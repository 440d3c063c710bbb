// Progress of a long command (`sync`, `demo`): a pure line from figures, and a reporter that redraws it
// on a terminal or prints it now and then when the output is a file or a pipe.
import { elapsed, thousands } from './table.js';

export interface ProgressFigures {
  /** Zone-days finished, and in all. */
  done: number;
  total: number;
  pages: number;
  entries: number;
  /** Milliseconds since the work began. */
  elapsedMs: number;
}

/** Pure: `zone-days 3/12 · 45 pages · 123,456 entries · 12,345/s · ETA 42s`. */
export function progressLine(f: ProgressFigures): string {
  const parts = [
    `zone-days ${f.done}/${f.total}`,
    `${thousands(f.pages)} ${f.pages === 1 ? 'page' : 'pages'}`,
    `${thousands(f.entries)} ${f.entries === 1 ? 'entry' : 'entries'}`,
  ];
  const seconds = f.elapsedMs / 1000;
  if (seconds >= 1) parts.push(`${thousands(Math.round(f.entries / seconds))}/s`);
  // The days left at the pace of the days done; none is known before the first day is.
  if (f.done > 0 && f.done < f.total)
    parts.push(`ETA ${elapsed((f.elapsedMs / f.done) * (f.total - f.done))}`);
  return parts.join(' · ');
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressOptions {
  /** Where the line goes (stderr: stdout is the command's own output). */
  out: ProgressOutput;
  /** Reads the figures; called on every tick. */
  read: () => ProgressFigures;
  /** Redraw interval on a terminal. @defaultValue 250 ms */
  ttyEveryMs?: number;
  /** Interval of plain lines elsewhere. @defaultValue 10 s */
  plainEveryMs?: number;
}

export interface ProgressReporter {
  /** Stops, clearing the terminal line. */
  stop(): void;
}

/**
 * On a terminal, one line redrawn in place; otherwise a plain line every
 * `plainEveryMs`, so logs of a long unattended sync show it is moving.
 */
export function startProgress(opts: ProgressOptions): ProgressReporter {
  const tty = opts.out.isTTY === true;
  // Redrawn with a carriage return and spaces over what is left of the last line: no escape sequences,
  // so it reads right on any terminal (and under NO_COLOR).
  let width = 0;
  const draw = () => {
    const line = progressLine(opts.read());
    if (!tty) {
      opts.out.write(`progress: ${line}\n`);
      return;
    }
    opts.out.write(`\r${line.padEnd(width)}`);
    width = line.length;
  };
  const timer = setInterval(draw, tty ? (opts.ttyEveryMs ?? 250) : (opts.plainEveryMs ?? 10_000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (tty && width > 0) opts.out.write(`\r${' '.repeat(width)}\r`);
    },
  };
}
