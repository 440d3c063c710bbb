import { describe, expect, it } from 'vitest';
import { fmix32, hashOf, keyed, Rng, unit } from '../../src/simulator/prng.js';
import { hex4, hex8, uuidOf } from '../../src/simulator/json-text.js';

describe('hashOf', () => {
  it.each([
    ['same tuple, same hash', [1, 'shield', 201, 20_000], [1, 'shield', 201, 20_000], true],
    ['seed differs', [1, 'shield', 201, 20_000], [2, 'shield', 201, 20_000], false],
    ['source differs', [1, 'shield', 201, 20_000], [1, 'origin', 201, 20_000], false],
    ['zone differs', [1, 'shield', 201, 20_000], [1, 'shield', 202, 20_000], false],
    ['order matters', [1, 2], [2, 1], false],
    ['high bits of a large integer count', [2 ** 40 + 5], [5], false],
    ['string boundaries count', ['ab', 'c'], ['a', 'bc'], false],
  ] as const)('%s', (_name, a, b, equal) => {
    expect(hashOf(...a) === hashOf(...b)).toBe(equal);
  });

  it('returns unsigned 32-bit integers', () => {
    for (let i = 0; i < 100; i++) {
      const h = hashOf(i, 'x');
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    }
  });
});

describe('fmix32 and keyed', () => {
  it('fmix32 is the murmur3 finaliser (fixed points and a known value)', () => {
    expect(fmix32(0)).toBe(0);
    expect(fmix32(1)).toBe(0x514e28b7);
  });

  it('keyed is a bijection of the index for one key: no collisions among many indexes', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200_000; i++) seen.add(keyed(0xdeadbeef, i));
    expect(seen.size).toBe(200_000);
  });
});

describe('Rng', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 8 }, () => rng.next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('reseed restarts the stream', () => {
    const rng = new Rng(7);
    const first = [rng.next(), rng.next()];
    rng.reseed(7);
    expect([rng.next(), rng.next()]).toEqual(first);
  });

  it.each([
    [0, 0],
    [1, 6],
    [-3, 3],
    [100, 100_000],
  ])('int(%i, %i) stays within bounds and reaches both ends', (lo, hi) => {
    const rng = new Rng(3);
    const values = Array.from({ length: 5000 }, () => rng.int(lo, hi));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(lo);
    expect(Math.max(...values)).toBeLessThanOrEqual(hi);
    if (hi - lo < 10) expect(new Set(values).size).toBe(hi - lo + 1);
  });

  it('float and unit stay in [0, 1)', () => {
    const rng = new Rng(9);
    for (let i = 0; i < 1000; i++) {
      const f = rng.float();
      expect(f >= 0 && f < 1).toBe(true);
    }
    expect(unit(0xffffffff)).toBeLessThan(1);
  });
});

describe('hex helpers', () => {
  it.each([
    [0, '0000', '00000000'],
    [0xabcd, 'abcd', '0000abcd'],
    [0xffffffff, 'ffff', 'ffffffff'],
    [0x12345678, '5678', '12345678'],
  ])('%i → %s / %s', (n, four, eight) => {
    expect(hex4(n)).toBe(four);
    expect(hex8(n)).toBe(eight);
  });

  it('uuidOf is UUID-shaped, version 4, variant 10xx', () => {
    expect(uuidOf(0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210)).toBe(
      '01234567-89ab-4def-bedc-ba9876543210',
    );
    expect(uuidOf(0, 0, 0, 0)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
