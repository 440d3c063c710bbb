// Continuation tokens: opaque to clients, stable across time. A token names a place in a zone-day —
// (segment, index within segment) — not a flat offset, so a token minted early in a day still points at
// the same entry after the day has grown. Every token holds / + = ? # % & so that a client which does
// not percent-encode the path segment fails loudly.
import { DAY_MS, dayOf, dayStartMs, type Day } from '../time/utc-day.js';
import { hex8 } from './json-text.js';
import { hashOf } from './prng.js';

export interface TokenPosition {
  zone: number;
  day: Day;
  /** Segment id (0 = the day's base entries, 1 + i = spike i). */
  segment: number;
  /** Index within the segment. */
  index: number;
  /** 1-based number of the page this token asks for. */
  page: number;
}

/** Appended to the base64 payload; the characters clients must percent-encode. */
export const TOKEN_DECORATION = '?v=1&k=%#/+';

const PAYLOAD = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\.(\d+)\.([0-9a-f]{8})$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function check(zone: number, dayNumber: number, p: TokenPosition): string {
  return hex8(hashOf('token', zone, dayNumber, p.segment, p.index, p.page));
}

export function encodeToken(p: TokenPosition): string {
  const dayNumber = dayStartMs(p.day) / DAY_MS;
  const payload = `${p.zone}.${dayNumber}.${p.segment}.${p.index}.${p.page}.${check(p.zone, dayNumber, p)}`;
  return `${Buffer.from(payload, 'latin1').toString('base64')}${TOKEN_DECORATION}`;
}

/** The position a token names, or undefined when it is not a token this simulator minted. */
export function decodeToken(token: string): TokenPosition | undefined {
  if (!token.endsWith(TOKEN_DECORATION)) return undefined;
  const b64 = token.slice(0, -TOKEN_DECORATION.length);
  if (!BASE64.test(b64) || b64.length % 4 !== 0) return undefined;
  const m = PAYLOAD.exec(Buffer.from(b64, 'base64').toString('latin1'));
  if (!m) return undefined;
  const [zone, dayNumber, segment, index, page] = m.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (![zone, dayNumber, segment, index, page].every(Number.isSafeInteger) || page < 1) return undefined;
  const position = { zone, day: dayOf(dayNumber * DAY_MS), segment, index, page };
  return check(zone, dayNumber, position) === m[6] ? position : undefined;
}
