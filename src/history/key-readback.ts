// The key checksum of a written Parquet file (checksum.ts), read back by DuckDB as a reader will see it,
// without turning each key into JavaScript values: DuckDB writes each row's key text (its parts joined as
// KeyChecksum.add joins them) to a temporary file as `<UTF-8 byte length>:<text>\n`, unquoted and
// unescaped, and KeyLines hashes the keys from the bytes. Fetching the keys as values cost ~1.6 s of CPU
// per million Shield rows (a native call and a UTF-8 decode per string); this ~0.45 s, with DuckDB's
// memory flat. The byte length frames each key, so a key may hold any character (newline, ':', NUL); any other
// framing fails the read, never passes it.
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryTableShape } from '../store/history-columns.js';
import { KeyChecksum } from './checksum.js';
import { sqlStringLiteral as quote } from './statement-tables.js';

export class KeyLinesError extends Error {
  override name = 'KeyLinesError';
}

/**
 * SQL text of a row's key as KeyChecksum.add makes it from the key's values: three parts in a template
 * (a NULL is "null"), any other number joined (a NULL is empty); integers as their decimal digits.
 */
export function keyTextSql(shape: HistoryTableShape): string {
  const absent = shape.key.length === 3 ? `'null'` : `''`;
  const parts = shape.key.map((name) => `coalesce(CAST("${name}" AS VARCHAR), ${absent})`);
  return `concat(${parts.join(', chr(0), ')})`;
}

/**
 * Pure: hashes the keys of `<length>:<text>\n` lines as their bytes come, in pieces of any size, into one
 * buffer that grows only for a key longer than it (the bytes of a partial line move to its start).
 */
export class KeyLines {
  private buf: Buffer;
  private held = 0;

  constructor(
    private readonly sum: KeyChecksum,
    size = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Fills the free end of the buffer by `read` (bytes read; 0 at the end) and hashes the whole lines. */
  fill(read: (into: Buffer, offset: number, length: number) => number): number {
    if (this.held === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.held);
      this.buf = bigger;
    }
    const n = read(this.buf, this.held, this.buf.length - this.held);
    this.held += n;
    this.consume();
    return n;
  }

  push(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length;) {
      this.fill((into, offset, length) => {
        const n = Math.min(length, bytes.length - at);
        into.set(bytes.subarray(at, at + n), offset);
        at += n;
        return n;
      });
    }
  }

  /** Throws when the lines end inside a key. */
  end(): void {
    if (this.held > 0) throw new KeyLinesError(`the keys end in a partial line (${this.held} bytes)`);
  }

  private consume(): void {
    const { buf, held } = this;
    const lines = buf.subarray(0, held);
    let at = 0;
    for (;;) {
      const colon = lines.indexOf(0x3a, at);
      if (colon < 0) {
        if (held - at > 16) throw new KeyLinesError(`no key length at byte ${at}`);
        break;
      }
      if (colon === at || colon - at > 15) throw new KeyLinesError(`not a key length at byte ${at}`);
      let length = 0;
      for (let i = at; i < colon; i++) {
        const d = buf[i]! - 0x30;
        if (d < 0 || d > 9) throw new KeyLinesError(`not a key length at byte ${at}`);
        length = length * 10 + d;
      }
      const end = colon + 1 + length;
      if (end >= held) break;
      if (buf[end] !== 0x0a) throw new KeyLinesError(`a key of ${length} bytes is not followed by a newline`);
      this.sum.addUtf8(buf, colon + 1, end);
      at = end + 1;
    }
    buf.copyWithin(0, at, held);
    this.held = held - at;
  }
}

/**
 * The key checksum of the Parquet file `from` (a read_parquet relation), its keys written to `scratch`
 * (a temporary name no reader matches: layout.ts), which is removed afterwards.
 */
export async function fileKeyChecksum(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  from: string,
  scratch: string,
): Promise<string> {
  try {
    const key = keyTextSql(shape);
    await duck.run(
      `COPY (SELECT strlen(k), k FROM (SELECT ${key} AS k FROM ${from})) TO ${quote(scratch)} ` +
        `(FORMAT csv, HEADER false, QUOTE '', DELIMITER ':')`,
    );
    const sum = new KeyChecksum();
    const lines = new KeyLines(sum);
    const fd = openSync(scratch, 'r');
    try {
      while (lines.fill((into, offset, length) => readSync(fd, into, offset, length, null)) > 0);
    } finally {
      closeSync(fd);
    }
    lines.end();
    return sum.digest();
  } finally {
    rmSync(scratch, { force: true });
  }
}
