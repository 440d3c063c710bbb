// SIGINT (PM2's stop signal) and SIGTERM are handled alike: the first asks for a clean stop, the
// second stops at once.

/** Resolves on the first SIGINT or SIGTERM; a second one exits the process immediately. */
export function untilSignal(onSecond: () => void = () => process.exit(130)): {
  promise: Promise<NodeJS.Signals>;
  dispose: () => void;
} {
  let dispose = () => {};
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    let count = 0;
    const handler = (signal: NodeJS.Signals) => {
      count++;
      if (count === 1) resolve(signal);
      else onSecond();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    dispose = () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  });
  return { promise, dispose };
}

/**
 * Resolves once this process's parent is gone (it was reparented): under `npx edgelog run` the parent is
 * npm's shell, and a SIGTERM to npx ends npm and that shell but reaches no further, which left the worker
 * running under PID 1. Checked once a second; `unref`'d, so it never holds the process.
 */
export function untilParentGone(every = 1_000): { promise: Promise<'parent gone'>; dispose: () => void } {
  const parent = process.ppid;
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'parent gone'>((resolve) => {
    timer = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(timer);
      resolve('parent gone');
    }, every);
    timer.unref();
  });
  return { promise, dispose: () => clearInterval(timer) };
}
