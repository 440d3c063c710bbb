// `edgelog run` on a terminal: the quiet line (status/run-line.ts) at the foot of stderr, read from the
// archive, the queue and the alerts every few seconds and redrawn in place; the log lines go around it
// (logger.ts). Off a terminal there is no line: the JSON log lines are the whole output.
import { stderrLine, type RedrawnLine } from '../format/progress.js';
import type { Engine } from '../engine.js';
import { ledgerFigures, runLine, type RunFigures } from '../status/run-line.js';
import { dayOf } from '../time/utc-day.js';

/** How often the figures are read again. */
const EVERY_MS = 5_000;

/** The figures now: the ledger's last pass and today's entries, the next plan due, the alerts firing. */
export async function readRunFigures(engine: Engine): Promise<RunFigures> {
  const [ledger, nextPassAt, states, series] = await Promise.all([
    engine.store.ledger.list(),
    engine.runtime.nextPlanAt(),
    engine.alerts.repo.listStates(),
    engine.store.alertSeries.list(),
  ]);
  const firing = [...states, ...series].filter((s) => s.state === 'firing').length;
  return { ...ledgerFigures(ledger, dayOf(engine.now())), nextPassAt, alertsFiring: firing };
}

export interface RunStatus {
  /** Stops, clearing the line. */
  stop(): void;
}

/** Draws the line on `line` now and every EVERY_MS until stopped; a read that fails keeps the last line. */
export function startRunStatus(
  read: () => Promise<RunFigures>,
  line: RedrawnLine = stderrLine,
  everyMs = EVERY_MS,
): RunStatus {
  let stopped = false;
  const draw = async () => {
    try {
      const figures = await read();
      if (!stopped) line.draw(runLine(figures));
    } catch {
      // Redis or the archive away for a moment: the worker's own log lines say so.
    }
  };
  void draw();
  const timer = setInterval(() => void draw(), everyMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      line.clear();
    },
  };
}
