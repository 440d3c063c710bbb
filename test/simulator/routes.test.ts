import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/simulator/routes.js';

describe('matchRoute', () => {
  it.each([
    [
      '/video/library/7/videos/abc-123/play',
      { operation: 'videoPlayData', libraryId: 7, videoId: 'abc-123' },
    ],
    ['/video/library/7/videos/a%20b/play', { operation: 'videoPlayData', libraryId: 7, videoId: 'a b' }],
    ['/origin/101/11-22-2026', { operation: 'originErrorLogs', zone: 101, date: '11-22-2026' }],
    ['/api/compute/script/5', { operation: 'edgeScript', id: 5 }],
    ['/api/shield/metrics/shield-zone/201/api-guardian', { operation: 'apiGuardianMetrics', zone: 201 }],
    ['/api/shield/ddos/enums', { operation: 'ddosEnums' }],
    ['/api/shield/rate-limit/9', { operation: 'rateLimit', id: 9 }],
    [
      '/api/shield/event-logs/201/11-22-2026/',
      { operation: 'shieldEventLogs', zone: 201, date: '11-22-2026', token: '' },
    ],
    [
      '/api/shield/event-logs/201/11-22-2026',
      { operation: 'shieldEventLogs', zone: 201, date: '11-22-2026', token: '' },
    ],
    [
      '/api/shield/event-logs/201/11-22-2026/ab%2Fc%2B%3D%3F%23%25%26',
      { operation: 'shieldEventLogs', zone: 201, date: '11-22-2026', token: 'ab/c+=?#%&' },
    ],
    // The date is checked by the handler (400), not by routing (404).
    ['/origin/101/2026-11-22', { operation: 'originErrorLogs', zone: 101, date: '2026-11-22' }],
  ])('%s', (path, route) => {
    const match = matchRoute(path);
    expect(match).toMatchObject({ ok: true, route, operation: route.operation });
  });

  it('keeps the path below the host prefix as the problem-detail instance', () => {
    expect(matchRoute('/api/shield/event-logs/201/11-22-2026/')).toMatchObject({
      instance: '/shield/event-logs/201/11-22-2026/',
    });
  });

  it.each([
    ['/', 404],
    ['/api', 404],
    ['/nope/shield/ddos/enums', 404],
    ['/api/shield/ddos/enums/', 404],
    ['/api/compute/script/abc', 404],
    ['/api/compute/script/', 404],
    ['/api/shield/event-logs/201/11-22-2026/a/b', 404],
    ['/api/shield/event-logs/zone/11-22-2026/', 404],
    ['/origin/101', 404],
    ['/video/library/x/videos/abc/play', 404],
    ['/video/library/7/videos//play', 404],
    ['/api/shield/event-logs/201/11-22-2026/%E0%A4%A', 400],
  ])('%s → %i', (path, status) => {
    expect(matchRoute(path)).toMatchObject({ ok: false, status });
  });
});
