// Property tests of token and path encoding: whatever continuation token the API hands out, the request
// edgelog builds for it reaches the server with that token, zone and date intact (the simulator's router
// decodes it as a server does); days survive the API's date form; the simulator's tokens round-trip.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originErrorLogsUrl, requestPath, shieldEventLogsUrl } from '../../src/api/paths.js';
import { EdgelogError } from '../../src/errors/index.js';
import { decodeToken, encodeToken } from '../../src/simulator/index.js';
import { matchRoute } from '../../src/simulator/routes.js';
import { dayOf, parseDay, toApiDate, type Day } from '../../src/time/utc-day.js';
import { anyText } from './arbitraries.js';
import { propertyParams } from './runs.js';

const HOSTS = {
  baseUrl: 'http://127.0.0.1:8080/api',
  originLogUrl: 'http://127.0.0.1:8080/origin',
  videoUrl: 'http://127.0.0.1:8080/video',
};

/** Any UTC day from 1970 to 2200. */
const day = fc.integer({ min: 0, max: 7_258_118_400_000 }).map((ms) => dayOf(ms));
// Zone ids as the API hands them out (the simulator's router takes at most 15 digits).
const zone = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** Tokens as an API may send them: anything, the dot segments, and base64 with / + = ? # % &. */
const token = fc.oneof(
  anyText,
  fc.constantFrom('.', '..', '...', '%2E', '%2e%2E', '/', '?', '#', '%', '%%', '..%2F', './', ' '),
  fc.base64String().map((b) => `${b}?v=1&k=%#/+`),
);

/** Whether text is a sequence of Unicode scalar values (no lone surrogate), judged by a UTF-8 round trip. */
function unicodeScalars(text: string): boolean {
  return new TextDecoder().decode(new TextEncoder().encode(text)) === text;
}

/** The path a request goes out with, as the server receives it (before the query). */
function sentPath(url: URL): string {
  const path = requestPath(url);
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

describe('token and path encoding (property)', () => {
  it('any continuation token reaches the server intact, with its zone and date', () => {
    fc.assert(
      fc.property(zone, day, token, (z, d, t) => {
        let url: URL;
        try {
          url = shieldEventLogsUrl(HOSTS, z, d, t);
        } catch (err) {
          // Refusing a token is allowed only for one that cannot be sent (a lone surrogate has no UTF-8),
          // with a typed error that says why: every other token must be sent.
          expect(err).toBeInstanceOf(EdgelogError);
          expect(unicodeScalars(t), `a token that can be sent was refused: ${JSON.stringify(t)}`).toBe(false);
          return;
        }
        const match = matchRoute(sentPath(url));
        expect(match).toMatchObject({
          ok: true,
          route: { operation: 'shieldEventLogs', zone: z, date: toApiDate(d), token: t },
        });
      }),
      propertyParams(1_000),
    );
  });

  // A token holding a lone surrogate (JSON may carry "\ud800", and JSON.parse keeps it) made
  // encodeURIComponent throw a bare URIError, "URI malformed"; paging now stops before sending it
  // (paging.ts, 'unusable-token'), and building such a URL is a typed error.
  it('a token that is not well-formed Unicode is refused with a typed error', () => {
    expect(() => shieldEventLogsUrl(HOSTS, 201, '2026-11-21', 'MjAx\ud800?v=1')).toThrow(EdgelogError);
  });

  it('an origin day reaches the server as its zone and the API date of that day', () => {
    fc.assert(
      fc.property(zone, day, (z, d) => {
        const match = matchRoute(sentPath(originErrorLogsUrl(HOSTS, z, d)));
        expect(match).toMatchObject({
          ok: true,
          route: { operation: 'originErrorLogs', zone: z, date: toApiDate(d) },
        });
      }),
      propertyParams(300),
    );
  });

  it('a day survives the API date form and back', () => {
    fc.assert(
      fc.property(day, (d: Day) => {
        expect(parseDay(toApiDate(d))).toBe(d);
      }),
      propertyParams(300),
    );
  });

  it("the simulator's tokens name their place exactly, and any other text names none", () => {
    const position = fc.record({
      zone: fc.integer({ min: 1, max: 2 ** 31 }),
      day,
      segment: fc.nat({ max: 1_000 }),
      index: fc.nat({ max: 10_000_000 }),
      page: fc.integer({ min: 1, max: 1_000_000 }),
    });
    fc.assert(
      fc.property(position, (p) => {
        expect(decodeToken(encodeToken(p))).toEqual(p);
      }),
      propertyParams(500),
    );
    fc.assert(
      fc.property(token, (t) => {
        const p = decodeToken(t);
        if (p) expect(encodeToken(p)).toBe(t);
      }),
      propertyParams(500),
    );
  });
});
