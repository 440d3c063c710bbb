// Small helpers for building JSON text by hand (the hot path avoids JSON.stringify of object graphs).

/** A string as a JSON string literal, quotes included. */
export function q(text: string): string {
  return JSON.stringify(text);
}

/**
 * The escaped content of a JSON string holding `text` (no surrounding quotes). Escaping is per
 * character, so escaping the pieces of a text and joining them equals escaping the joined text: log
 * texts embedded in entries are assembled from pieces escaped once, ahead of time.
 */
export function esc(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

const HEX2: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Four lowercase hex digits of the low 16 bits. */
export function hex4(u: number): string {
  return HEX2[(u >>> 8) & 255]! + HEX2[u & 255]!;
}

/** Eight lowercase hex digits of a 32-bit value. */
export function hex8(u: number): string {
  return HEX2[u >>> 24]! + HEX2[(u >>> 16) & 255]! + HEX2[(u >>> 8) & 255]! + HEX2[u & 255]!;
}

/** A UUID-shaped id (version 4, variant 10xx) from four 32-bit words. */
export function uuidOf(w0: number, w1: number, w2: number, w3: number): string {
  return (
    `${hex8(w0)}-${hex4(w1 >>> 16)}-${hex4((w1 & 0x0fff) | 0x4000)}-` +
    `${hex4(((w2 >>> 16) & 0x3fff) | 0x8000)}-${hex4(w2)}${hex8(w3)}`
  );
}
