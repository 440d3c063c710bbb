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
