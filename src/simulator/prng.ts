// Pure, seeded pseudo-randomness. Everything the simulator serves is a function of a few integers
// (seed, source, zone, day, segment, index) run through these 32-bit mixers, so any entry can be
// computed on its own (random access) and two runs with one seed serve the same bytes.

const GOLDEN = 0x9e3779b9;
const TWO_32 = 4_294_967_296;

/** MurmurHash3's finaliser: a bijection on 32-bit integers with good avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Folds a non-negative safe integer (both 32-bit halves) into the running hash `h`. */
export function mixInt(h: number, value: number): number {
  const lo = value >>> 0;
  const hi = Math.floor(value / TWO_32) >>> 0;
  h = fmix32((h ^ lo) + GOLDEN);
  return fmix32((h ^ hi) + 0x7f4a7c15);
}

/** Folds a string (its UTF-16 code units, FNV-1a style) into the running hash `h`. */
export function mixString(h: number, text: string): number {
  let x = (h ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193);
  return fmix32(x + text.length);
}

/** A 32-bit hash of a tuple of non-negative integers and strings. */
export function hashOf(...parts: Array<number | string>): number {
  let h = 0x2545f491;
  for (const part of parts) h = typeof part === 'number' ? mixInt(h, part) : mixString(h, part);
  return h;
}

/**
 * The `index`-th value of the keyed sequence `key`: for a fixed key this is a bijection of the index
 * modulo 2^32, so distinct indexes of one key never collide.
 */
export function keyed(key: number, index: number): number {
  return fmix32((key + Math.imul(index, GOLDEN)) | 0);
}

/** Maps a 32-bit unsigned integer to [0, 1). */
export function unit(u32: number): number {
  return u32 / TWO_32;
}

/** splitmix32: a small stream generator; `reseed` lets one instance serve many entries. */
export class Rng {
  private state: number;

  constructor(seed = 0) {
    this.state = seed | 0;
  }

  reseed(seed: number): this {
    this.state = seed | 0;
    return this;
  }

  /** The next unsigned 32-bit value. */
  next(): number {
    this.state = (this.state + GOLDEN) | 0;
    return fmix32(this.state);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / TWO_32;
  }

  /** An integer in [lo, hi], both included (hi - lo below 2^32). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.float() < p;
  }
}
