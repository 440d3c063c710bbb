// Where a running worker serves /metrics, read from its log: the `metrics` field of its latest
// 'worker running' line (a worker listening on port 0 says there which port it got).

/** The metrics URL of the latest 'worker running' line in `log` (JSON lines), or undefined before it. */
export function metricsUrlIn(log: string): string | undefined {
  return [...log.matchAll(/"metrics":"(http:\/\/[^"]+)"/g)].at(-1)?.[1];
}
