// The key checksum (src/history/checksum.ts): order does not matter; a lost, extra, changed or moved
// key does; numbers and bigints of one value agree (SQLite reads bigints, PostgreSQL numbers).
import { describe, expect, it } from 'vitest';
import { KeyChecksum, type KeyPart } from '../../src/history/checksum.js';

const sum = (keys: KeyPart[][]) => {
  const c = new KeyChecksum();
  for (const k of keys) c.add(k);
  return c.digest();
};
const keys: KeyPart[][] = Array.from({ length: 500 }, (_, i) => [201, 1795132800000 + i, `id-${i}`]);

describe('KeyChecksum', () => {
  it('is the same whatever the order, and for bigints as for numbers', () => {
    expect(sum([...keys].reverse())).toBe(sum(keys));
    expect(sum(keys.map(([z, t, id]) => [BigInt(z!), BigInt(t!), id!]))).toBe(sum(keys));
    expect(sum(keys)).toMatch(/^500:[0-9a-f]{16}$/);
  });

  it('changes with a key lost, added, changed or its parts shifted', () => {
    const base = sum(keys);
    expect(sum(keys.slice(1))).not.toBe(base);
    expect(sum([...keys, [201, 1, 'x']])).not.toBe(base);
    expect(sum(keys.map((k, i) => (i === 7 ? [k[0]!, k[1]!, 'id-7x'] : k)))).not.toBe(base);
    // The same row twice instead of two rows: the count is equal, the sums not.
    expect(sum(keys.map((k, i) => (i === 8 ? keys[9]! : k)))).not.toBe(base);
    // Parts are separated: (1, 23) is not (12, 3).
    expect(sum([[1, 23, 'a']])).not.toBe(sum([[12, 3, 'a']]));
  });

  it('is the function the recorded checksums were made by (files compacted before still verify)', () => {
    // The digest printed by the build before key-readback.ts (main at 0503f92) for these keys.
    const c = new KeyChecksum();
    for (let i = 0; i < 100; i++) c.add([201n, 1795132800000n + BigInt(i), `id-${i}-é日🙂`]);
    c.add(['shield', 201, '2026-11-20', 1, 2, 'h']);
    expect(c.digest()).toBe('101:fbfba24460fdd890');
  });
});
