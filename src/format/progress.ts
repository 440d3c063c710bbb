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
    `${thousands(f.pages)} pages`,
    `${thousands(f.entries)} entries`,
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
  /** Stops, clearing the terminal line (or printing a last plain line). */
  stop(): void;
}

/**
 * On a terminal, one line redrawn in place (`\r`, erase to end of line); otherwise a plain line every
 * `plainEveryMs`, so logs of a long unattended sync show it is moving.
 */
export function startProgress(opts: ProgressOptions): ProgressReporter {
  const tty = opts.out.isTTY === true;
  const draw = () => {
    const line = progressLine(opts.read());
    opts.out.write(tty ? `\r\x1b[K${line}` : `progress: ${line}\n`);
  };
  const timer = setInterval(draw, tty ? (opts.ttyEveryMs ?? 250) : (opts.plainEveryMs ?? 10_000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (tty) opts.out.write('\r\x1b[K');
    },
  };
}
