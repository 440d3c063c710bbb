// Pure: a checksum over a set of row keys that does not depend on the order the rows come in, so the
// store's rows (read page by page) and the file's rows (read back by DuckDB) are compared without
// sorting either. Each key (its parts joined by NUL) is hashed twice, with two seeds, by a 32-bit
// multiply-xorshift hash over its UTF-16 code units (a checksum against lost, extra or changed rows, not
// against an adversary; SHA-256 per row took longer than the rest of a compaction); the hashes are summed
// modulo 2^32 each. A missing, extra or changed key changes the sums (short of a 2^-64 chance); the count
// is compared beside them.
export type KeyPart = string | number | bigint;

const TWO_32 = 4_294_967_296;

const M = 0x5bd1e995;
const SEED_A = 0x9747b28c;
const SEED_B = 0x2f6e2b1;
// ignoreBOM keeps a leading U+FEFF in the text (by default the decoder drops it).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The two hashes of `text` (one per seed), in one pass over its code units, into `into`. */
function hashPair(text: string, into: { a: number; b: number }): void {
  let a = SEED_A ^ text.length;
  let b = SEED_B ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, M);
    a ^= a >>> 15;
    b = Math.imul(b ^ c, M);
    b ^= b >>> 15;
  }
  into.a = fmix32(a);
  into.b = fmix32(b);
}

const PAIR = { a: 0, b: 0 };

/** Final avalanche (murmur3's fmix32). */
function fmix32(h: number): number {
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
    this.addText(parts.length === 3 ? `${parts[0]}\u0000${parts[1]}\u0000${parts[2]}` : parts.join('\u0000'));
  }

  /** A key as its text: its parts joined as add() joins them (key-readback.ts reads it so from a file). */
  addText(text: string): void {
    hashPair(text, PAIR);
    this.a = (this.a + PAIR.a) % TWO_32;
    this.b = (this.b + PAIR.b) % TWO_32;
    this.n++;
  }

  /**
   * A key as the UTF-8 bytes of its text, `bytes[start, end)`: the same as addText of the decoded text.
   * ASCII (every key of the simulator and the API seen so far) is hashed from the bytes, each a UTF-16
   * code unit of its own; any other text is decoded first (invalid UTF-8 throws: no file holds it).
   */
  addUtf8(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    let a = SEED_A ^ length;
    let b = SEED_B ^ length;
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) {
        this.addText(UTF8.decode(bytes.subarray(start, end)));
        return;
      }
      a = Math.imul(a ^ c, M);
      a ^= a >>> 15;
      b = Math.imul(b ^ c, M);
      b ^= b >>> 15;
    }
    this.a = (this.a + fmix32(a)) % TWO_32;
    this.b = (this.b + fmix32(b)) % TWO_32;
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

/** The checksum of no rows. */
export const EMPTY_CHECKSUM = '0:0000000000000000';

/** Pure: the checksum of the union of disjoint key sets, from theirs (the sums add, as the counts do). */
export function combineChecksums(digests: readonly string[]): string {
  let n = 0;
  let a = 0;
  let b = 0;
  for (const d of digests) {
    const m = /^(\d+):([0-9a-f]{8})([0-9a-f]{8})$/.exec(d);
    if (!m) throw new RangeError(`not a key checksum: ${d}`);
    n += Number(m[1]);
    a = (a + parseInt(m[2]!, 16)) % TWO_32;
    b = (b + parseInt(m[3]!, 16)) % TWO_32;
  }
  const hex = (v: number) => v.toString(16).padStart(8, '0');
  return `${n}:${hex(a)}${hex(b)}`;
}

/** Pure: the number of keys a checksum covers. */
export function checksumRows(checksum: string): number {
  return Number(checksum.split(':')[0]);
}
