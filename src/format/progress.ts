// Progress of a long command (`sync`, `demo`): a pure line from figures, and a reporter that redraws it
// on a terminal or prints it now and then when the output is a file or a pipe. On a terminal the line
// shares stderr with the log lines: a log line clears it first and it is redrawn under the log line.
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

/**
 * The one line a terminal redraws in place. Redrawn with a carriage return and spaces over what is left
 * of the last text: no escape sequences, so it reads right on any terminal (and under NO_COLOR).
 */
export class RedrawnLine {
  private shown = '';

  constructor(private readonly out: ProgressOutput) {}

  /** Shows `text` in place of what the line shows. */
  draw(text: string): void {
    this.out.write(`\r${text.padEnd(this.shown.length)}`);
    this.shown = text;
  }

  /** Clears the line, leaving the cursor at its start. */
  clear(): void {
    if (this.shown.length > 0) this.out.write(`\r${' '.repeat(this.shown.length)}\r`);
    this.shown = '';
  }

  /**
   * Runs `write` (which prints whole lines to the same terminal) with the line cleared, then draws it
   * again under what was written: a log line never lands on top of it.
   */
  around(write: () => void): void {
    const text = this.shown;
    if (text.length === 0) return write();
    this.clear();
    try {
      write();
    } finally {
      this.out.write(text);
      this.shown = text;
    }
  }
}

/** The redrawn line of this process's stderr: the progress reporter draws on it, the log lines go around it. */
export const stderrLine = new RedrawnLine(process.stderr);

export interface ProgressOptions {
  /** Where the line goes (stderr: stdout is the command's own output). */
  out: ProgressOutput;
  /** On a terminal, the line to draw on (stderrLine when `out` is stderr). @defaultValue a line of its own */
  line?: RedrawnLine;
  /** Reads the figures; called on every tick. */
  read: () => ProgressFigures;
  /** Makes the line from the figures. @defaultValue progressLine */
  format?: (f: ProgressFigures) => string;
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
  const redrawn = tty ? (opts.line ?? new RedrawnLine(opts.out)) : undefined;
  const draw = () => {
    const line = (opts.format ?? progressLine)(opts.read());
    if (redrawn) redrawn.draw(line);
    else opts.out.write(`progress: ${line}\n`);
  };
  const timer = setInterval(draw, tty ? (opts.ttyEveryMs ?? 250) : (opts.plainEveryMs ?? 10_000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      redrawn?.clear();
    },
  };
}
