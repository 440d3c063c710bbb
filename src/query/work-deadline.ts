// A deadline on working time: the time between pause() and resume() (waiting for a slow reader of the
// output, e.g. `| less`) does not count.

export interface WorkDeadline {
  pause(): void;
  resume(): void;
  /** Disarms it for good. */
  stop(): void;
}

/** Calls `onExpiry` once, when `ms` of unpaused time have passed; `ms` 0 never expires. */
export function workDeadline(ms: number, onExpiry: () => void): WorkDeadline {
  if (ms === 0) return { pause() {}, resume() {}, stop() {} };
  let left = ms;
  let since = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    since = performance.now();
    timer = setTimeout(() => {
      timer = undefined;
      done = true;
      onExpiry();
    }, left);
  };
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  arm();
  return {
    pause() {
      if (timer === undefined) return;
      disarm();
      left = Math.max(0, left - (performance.now() - since));
    },
    resume() {
      if (timer === undefined && !done) arm();
    },
    stop() {
      disarm();
      done = true;
    },
  };
}
