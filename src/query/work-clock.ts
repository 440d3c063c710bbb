// Pure bookkeeping of working time: the time between pause() and resume() (the output waiting for a
// slow reader, e.g. `| less`) does not count.

export class WorkClock {
  private spent = 0;
  private since: number;
  private paused = false;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.since = now();
  }

  pause(): void {
    if (this.paused) return;
    this.spent += this.now() - this.since;
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.since = this.now();
    this.paused = false;
  }

  /** Working milliseconds so far. */
  elapsed(): number {
    return this.spent + (this.paused ? 0 : this.now() - this.since);
  }
}
