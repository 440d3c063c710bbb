// Signals at random instants: either soon after start (start-up, migrations, queue set-up, the first
// requests) or once the archive has grown by a random number of pages, so that most land mid-ingest.
import type { CliRun } from './scene.js';
import type { ProgressProbe } from './progress.js';
import type { Rng } from './seeded.js';
import { sleep } from './wait.js';

export interface Landing {
  /** The process had already exited: no signal was sent. */
  exitedFirst: boolean;
  /** The signal was sent while entries were being stored (the archive grew during this run). */
  midIngest: boolean;
  /** When the signal was sent (Date.now()). */
  sentAt: number;
}

/**
 * Waits for a random instant of `run`, then sends `signal`. `pageSize` entries count as one page;
 * `earlyChance` of the instants fall in the first 1.5 s instead. A run with nothing left to store (a
 * worker whose days are done) gets its signal after a random 2–8 s.
 */
export async function signalAtRandom(
  run: CliRun,
  signal: NodeJS.Signals,
  opts: { rng: Rng; probe: ProgressProbe; pageSize: number; earlyChance?: number; maxPages?: number },
): Promise<Landing> {
  const { rng, probe } = opts;
  let exited = false;
  void run.done.then(() => (exited = true));
  const before = await probe.entries();
  if (rng.chance(opts.earlyChance ?? 0.2)) await sleep(rng.int(0, 1500));
  else {
    const target = before + rng.int(1, opts.maxPages ?? 4) * opts.pageSize;
    const latest = Date.now() + rng.int(2000, 8000);
    while (!exited && (await probe.entries()) < target && Date.now() < latest) await sleep(10);
    await sleep(rng.int(0, 30));
  }
  if (exited) return { exitedFirst: true, midIngest: false, sentAt: Date.now() };
  const midIngest = (await probe.entries()) > before;
  run.child.kill(signal);
  return { exitedFirst: false, midIngest, sentAt: Date.now() };
}
