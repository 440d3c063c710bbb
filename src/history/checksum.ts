// Pure: a checksum over a set of row keys that does not depend on the order the rows come in, so the
// store's rows (read page by page) and the file's rows (read back by DuckDB) are compared without
// sorting either. Each key is hashed (SHA-256 of its parts joined by NUL, which no part holds in a
// way that could shift it: integers and the API's ids) and the first 64 bits of the hashes are summed
// modulo 2^64. A missing, extra or changed key changes the sum (short of a 2^-64 chance); the count
// is compared beside it.
import { createHash } from 'node:crypto';

const MASK = (1n << 64n) - 1n;

export type KeyPart = string | number | bigint;

export class KeyChecksum {
  private sum = 0n;
  private n = 0;

  add(parts: readonly KeyPart[]): void {
    const digest = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
    this.sum = (this.sum + digest.readBigUInt64BE(0)) & MASK;
    this.n++;
  }

  get count(): number {
    return this.n;
  }

  /** `<count>:<16 hex digits>`. */
  digest(): string {
    return `${this.n}:${this.sum.toString(16).padStart(16, '0')}`;
  }
}
