// The scenarios' randomness: one seed decides every kill instant, fault mix and simulator dataset, so a
// failure replays from the seed it prints (timing on a busy machine still varies; the draws do not).
import { hashOf, Rng } from '../../../src/simulator/prng.js';

/** A seed from FAULT_SEED, or a fresh one (printed with every result, to replay it). */
export function suiteSeed(env: NodeJS.ProcessEnv = process.env): number {
  const fixed = env.FAULT_SEED;
  if (fixed !== undefined && fixed !== '') {
    if (!/^\d+$/.test(fixed)) throw new RangeError(`FAULT_SEED must be a whole number, got "${fixed}"`);
    return Number(fixed);
  }
  return Math.floor(Math.random() * 2 ** 31);
}

/** A generator of its own for one scenario (or one part of it), derived from the suite's seed. */
export function rngFor(seed: number, ...scope: Array<string | number>): Rng {
  return new Rng(hashOf(seed, ...scope));
}

export type { Rng };
