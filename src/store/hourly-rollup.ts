// Pure: counts new rows per rollup key while a page is stored, so the rollup tables get one upsert
// per distinct (hour, attributes) instead of one per row.

export const HOUR_MS = 3_600_000;

export function hourStart(timestampMs: number): number {
  return timestampMs - (timestampMs % HOUR_MS);
}

/** Accumulates counts per key; keys are composite strings, values keep the parts to write back. */
export class RollupCounter<Parts extends readonly unknown[]> {
  private readonly counts = new Map<string, { parts: Parts; count: number }>();

  add(key: string, parts: Parts): void {
    const slot = this.counts.get(key);
    if (slot) slot.count++;
    else this.counts.set(key, { parts, count: 1 });
  }

  get size(): number {
    return this.counts.size;
  }

  *entries(): IterableIterator<{ parts: Parts; count: number }> {
    yield* this.counts.values();
  }
}
