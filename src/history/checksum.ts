// Pure: a checksum over a set of row keys that does not depend on the order the rows come in, so the
// store's rows (read page by page) and the file's rows (read back by DuckDB) are compared without
// sorting either. Each key (its parts joined by NUL) is hashed twice, with two seeds, by a 32-bit
// multiply-xorshift hash over its UTF-16 code units (a checksum against lost, extra or changed rows, not
// against an adversary; SHA-256 per row took longer than the rest of a compaction); the hashes are summed
// modulo 2^32 each. A missing, extra or changed key changes the sums (short of a 2^-64 chance); the count
// is compared beside them.
export type KeyPart = string | number | bigint;

const TWO_32 = 4_294_967_296;

function hash32(text: string, seed: number): number {
  let h = seed ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  // Final avalanche (murmur3's fmix32).
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class KeyChecksum {
  private a = 0;
  private b = 0;
  private n = 0;

  add(parts: readonly KeyPart[]): void {
    const text = parts.length === 3 ? `${parts[0]}\u0000${parts[1]}\u0000${parts[2]}` : parts.join('\u0000');
    this.a = (this.a + hash32(text, 0x9747b28c)) % TWO_32;
    this.b = (this.b + hash32(text, 0x2f6e2b1)) % TWO_32;
    this.n++;
  }

  get count(): number {
    return this.n;
  }

  /** `<count>:<16 hex digits>`. */
  digest(): string {
    const hex = (v: number) => v.toString(16).padStart(8, '0');
    return `${this.n}:${hex(this.a)}${hex(this.b)}`;
  }
}
