// Durations in config and on the command line: "250ms", "30s", "15m", "1h", "2d", or a number of milliseconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds of a duration, or undefined when the text is not one. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}

/** The shortest exact way to write a millisecond count, e.g. 3600000 → "1h". */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit]! && ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  }
  return `${ms}ms`;
}
