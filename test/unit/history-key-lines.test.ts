// The key checksum from bytes (src/history/checksum.ts addUtf8) and from `<bytes>:<text>\n` lines
// (src/history/key-readback.ts KeyLines): the same digest as KeyChecksum.add over the same keys, whatever
// their characters and however the bytes are cut; a line that is not framed as said fails, never passes.
import { describe, expect, it } from 'vitest';
import { KeyChecksum, type KeyPart } from '../../src/history/checksum.js';
import { KeyLines, KeyLinesError } from '../../src/history/key-readback.js';

const ODD = [
  'id-1',
  '',
  'a:b',
  'new\nline',
  '12:x\n',
  'nul\u0000x',
  'é 日本 🙂',
  '\ufeffbom first',
  'q"uote \\ \r\t',
  'x'.repeat(3_000_000),
];
const keys: KeyPart[][] = ODD.map((id, i) => [201n, 1795132800000n + BigInt(i), id]);
const text = (k: KeyPart[]) => `${k[0]}\u0000${k[1]}\u0000${k[2]}`;
const digestOf = (ks: KeyPart[][]) => {
  const c = new KeyChecksum();
  for (const k of ks) c.add(k);
  return c.digest();
};
const asLines = (ks: KeyPart[][]) =>
  Buffer.concat(
    ks.map((k) => {
      const b = Buffer.from(text(k), 'utf8');
      return Buffer.concat([Buffer.from(`${b.length}:`), b, Buffer.from('\n')]);
    }),
  );
const viaLines = (bytes: Buffer, piece: number, size?: number) => {
  const c = new KeyChecksum();
  const lines = new KeyLines(c, size);
  for (let at = 0; at < bytes.length; at += piece) lines.push(bytes.subarray(at, at + piece));
  lines.end();
  return c.digest();
};

describe('KeyChecksum.addUtf8', () => {
  it('is addText of the decoded text, ASCII or not (a leading BOM kept)', () => {
    // A key whose text starts with U+FEFF (a first part of text: the quarantine's six-part keys).
    for (const k of [...keys, ['\ufeffx', 1, 'y', 2] as KeyPart[]]) {
      const a = new KeyChecksum();
      const b = new KeyChecksum();
      const bytes = Buffer.from(`..${k.length === 3 ? text(k) : k.join('\u0000')}..`, 'utf8');
      a.addUtf8(bytes, 2, bytes.length - 2);
      b.add(k);
      expect(a.digest()).toBe(b.digest());
    }
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => new KeyChecksum().addUtf8(Buffer.from([0x61, 0xff]), 0, 2)).toThrow(TypeError);
  });
});

describe('KeyLines', () => {
  const bytes = asLines(keys);
  it('gives the digest of the keys, whatever pieces the bytes come in and the buffer size', () => {
    const want = digestOf(keys);
    expect(viaLines(bytes, bytes.length)).toBe(want);
    expect(viaLines(bytes, 1, 16)).toBe(want);
    expect(viaLines(bytes, 7, 64)).toBe(want);
    expect(viaLines(bytes, 65_536)).toBe(want);
    expect(viaLines(Buffer.alloc(0), 1)).toBe(new KeyChecksum().digest());
  });

  it('fails on a partial last line, a wrong length or a missing length', () => {
    expect(() => viaLines(bytes.subarray(0, bytes.length - 1), 1000)).toThrow(KeyLinesError);
    expect(() => viaLines(Buffer.from('3:abcd\n'), 1000)).toThrow(/not followed by a newline/);
    expect(() => viaLines(Buffer.from('5:abcd\n'), 1000)).toThrow(/partial line/);
    expect(() => viaLines(Buffer.from(':abc\n'), 1000)).toThrow(/not a key length/);
    expect(() => viaLines(Buffer.from('x3:abc\n'), 1000)).toThrow(/not a key length/);
    expect(() => viaLines(Buffer.from('a'.repeat(40)), 1000)).toThrow(/no key length/);
  });
});
