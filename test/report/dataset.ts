// One small archive with known numbers, shared by the report and view tests.
import type { Archive } from '../../src/store/sqlite/archive.js';
import { originEntry, shieldEntry, storeOrigin, storeShield, times } from './fixture.js';

export function fillOrigin(archive: Archive): void {
  const a = { url: 'https://pz/a', status: 502, code: 'http_502', server: 'DE' };
  storeOrigin(archive, 101, [
    ...times(3, () => originEntry('2024-10-14T10:15:00Z', a)),
    originEntry('2024-10-14T10:45:00Z', {
      url: 'https://pz/b',
      status: 504,
      code: 'http_timeout',
      server: 'US',
    }),
    ...times(2, () =>
      originEntry('2024-10-15T03:00:00Z', {
        url: 'https://pz/a',
        status: 404,
        code: 'not_found',
        server: 'DE',
      }),
    ),
    originEntry('2024-10-15T05:00:00Z', null),
    originEntry('2024-10-15T23:59:59.999Z', { url: 'https://pz/d', status: 500, server: 'DE' }),
    // Just outside 2024-10-14 … 2024-10-15.
    originEntry('2024-10-13T23:59:59.999Z', { ...a, url: 'https://pz/early', server: 'SG' }),
    originEntry('2024-10-16T00:00:00.000Z', { ...a, url: 'https://pz/late', server: 'SG' }),
  ]);
  storeOrigin(
    archive,
    202,
    times(2, () =>
      originEntry('2024-10-15T12:00:00Z', {
        url: 'https://pz/c',
        status: 503,
        code: 'http_503',
        server: 'US',
      }),
    ),
  );
}

export function fillShield(archive: Archive): void {
  const sqli = {
    rule: '942100',
    message: 'SQL injection',
    severity: 'CRITICAL',
    status: 'BLOCKED',
    country: 'US',
    asn: 'AS15169',
    method: 'POST',
  };
  storeShield(archive, 7, [
    ...times(4, () => shieldEntry('2024-10-15T01:10:00Z', sqli)),
    ...times(2, () =>
      shieldEntry('2024-10-15T01:20:00Z', {
        rule: '941100',
        message: 'XSS',
        severity: 'WARNING',
        status: 'LOGGED',
        country: 'DE',
        asn: 'AS3320',
        method: 'GET',
      }),
    ),
    shieldEntry('2024-10-15T02:00:00Z', { ...sqli, country: 'DE', asn: 'AS3320', method: 'GET' }),
    shieldEntry('2024-10-15T02:30:00Z', {}),
    shieldEntry('2024-10-16T00:00:00Z', sqli),
  ]);
  storeShield(
    archive,
    8,
    times(3, () =>
      shieldEntry('2024-10-15T23:00:00Z', {
        rule: '913100',
        message: 'Scanner',
        severity: 'NOTICE',
        status: 'BLOCKED',
        country: 'CN',
        asn: 'AS4134',
        method: 'GET',
      }),
    ),
  );
}

const counters = (
  inspected: number,
  blocked: number,
  logged: number,
  rate: number,
  fv: number,
  fa: number,
) => ({
  data: {
    totalRequestsInspected: inspected,
    totalBlockedRequests: blocked,
    totalLoggedRequests: logged,
    totalRateLimited: rate,
    totalFailedRequestValidation: fv,
    totalFailedAuthenticationEnforcement: fa,
  },
});

export function fillGuardian(archive: Archive): void {
  const at = (iso: string) => new Date(iso);
  archive.guardian.add(7, at('2024-10-14T23:45:00Z'), counters(50, 8, 5, 0, 1, 0));
  archive.guardian.add(7, at('2024-10-15T00:00:00Z'), counters(100, 10, 5, 0, 1, 0));
  archive.guardian.add(7, at('2024-10-15T00:15:00Z'), counters(150, 12, 5, 0, 1, 0));
  archive.guardian.add(7, at('2024-10-15T00:30:00Z'), null, { message: 'upstream timeout' });
  // A restart of the counters: inspected and the others drop.
  archive.guardian.add(7, at('2024-10-15T00:45:00Z'), counters(20, 15, 9, 2, 1, 0));
  archive.guardian.add(9, at('2024-10-15T06:00:00Z'), counters(1, 2, 3, 4, 5, 6));
}
