// Pure: sizes for people, in binary units as docs/PERFORMANCE.md's figures are.

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** 512 → "512 B", 1536 → "1.5 KiB", 123456789 → "117.7 MiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** How far a copy of `total` bytes is, e.g. "42% (12.3 MiB of 29.1 MiB)". */
export function progressText(done: number, total: number): string {
  const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
  return `${pct}% (${formatBytes(done)} of ${formatBytes(total)})`;
}
