import { describe, expect, it } from 'vitest';
import {
  SmartGenerateStatus as S,
  VideoModelStatus,
  aggregateSmartGenerateStatus,
  enumName,
} from '../../src/api/enums.js';
import {
  originErrorLogsUrl,
  redactUrl,
  requestPath,
  shieldEventLogsUrl,
  videoPlayDataUrl,
} from '../../src/api/paths.js';

describe('aggregateSmartGenerateStatus (API.md 2.2)', () => {
  it.each([
    ['no features: the legacy value', null, S.Finished, S.Finished],
    ['no features, no legacy', undefined, null, null],
    [
      'InProgress wins over everything',
      { title: S.Finished, description: S.InProgress, chapters: S.Queued, moments: S.Failed },
      S.None,
      S.InProgress,
    ],
    ['then Queued', { title: S.Finished, chapters: S.Queued, moments: S.Failed }, S.None, S.Queued],
    ['then Failed', { title: S.Finished, moments: S.Failed }, S.None, S.Failed],
    ['then Finished', { title: S.Finished, description: null }, S.Failed, S.Finished],
    [
      'all features null (legacy rows): the legacy value',
      { title: null, description: null, chapters: null, moments: null },
      S.Queued,
      S.Queued,
    ],
    ['only None: the legacy value', { title: S.None }, S.Finished, S.Finished],
  ])('%s', (_name, features, legacy, expected) => {
    expect(aggregateSmartGenerateStatus(features, legacy)).toBe(expected);
  });

  it('names enumeration values', () => {
    expect(enumName(VideoModelStatus, 8)).toBe('JitPlaylistsCreated');
    expect(enumName(VideoModelStatus, 42)).toBe('Unknown(42)');
  });
});

describe('URL building', () => {
  const hosts = {
    baseUrl: 'https://api.bunny.net',
    originLogUrl: 'https://cdn-origin-logging.bunny.net/',
    videoUrl: 'https://video.bunnycdn.com',
  };

  it('puts the first Shield page on an empty token segment (trailing slash)', () => {
    expect(shieldEventLogsUrl(hosts, 678, '2024-10-15').href).toBe(
      'https://api.bunny.net/shield/event-logs/678/10-15-2024/',
    );
  });

  it('percent-encodes a token holding / + = ? # % &', () => {
    const url = shieldEventLogsUrl(hosts, 678, '10-15-2024', 'a/b+c=d?e#f%g&h');
    expect(url.pathname).toBe('/shield/event-logs/678/10-15-2024/a%2Fb%2Bc%3Dd%3Fe%23f%25g%26h');
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
  });

  // Sent as they are, `.` and `..` are dot segments: URL resolution drops them (page 1 again) or the
  // date before them.
  it.each([
    ['.', '/shield/event-logs/678/10-15-2024/%2E'],
    ['..', '/shield/event-logs/678/10-15-2024/%2E%2E'],
    ['...', '/shield/event-logs/678/10-15-2024/...'],
    ['a.b', '/shield/event-logs/678/10-15-2024/a.b'],
  ])('keeps the token %j a segment of its own', (token, path) => {
    expect(requestPath(shieldEventLogsUrl(hosts, 678, '10-15-2024', token))).toBe(path);
  });

  it('keeps a host path before the segments', () => {
    const url = shieldEventLogsUrl({ ...hosts, baseUrl: 'http://127.0.0.1:9/api' }, 1, '2024-10-15', '..');
    expect(requestPath(url)).toBe('/api/shield/event-logs/1/10-15-2024/%2E%2E');
  });

  it('shows a host without its credentials', () => {
    const url = shieldEventLogsUrl(
      { ...hosts, baseUrl: 'https://user:pa55word@api.example' },
      1,
      '2024-10-15',
    );
    expect(redactUrl(url)).toBe('https://api.example/shield/event-logs/1/10-15-2024/');
  });

  it('formats origin dates and checks ids before any request', () => {
    expect(originErrorLogsUrl(hosts, '12345', '2024-10-15').href).toBe(
      'https://cdn-origin-logging.bunny.net/12345/10-15-2024',
    );
    expect(() => originErrorLogsUrl(hosts, 0, '2024-10-15')).toThrow('pullZoneId must be a positive integer');
    expect(() => originErrorLogsUrl(hosts, 1.5, '2024-10-15')).toThrow(
      'pullZoneId must be a positive integer',
    );
    expect(() => originErrorLogsUrl(hosts, 1, '2024-02-30')).toThrow('not a real calendar day');
  });

  it('sends token and expires as query parameters, and redacts the token for logs', () => {
    const url = videoPlayDataUrl(hosts, 5, 'abc-def', { token: 'secret', expires: 1700000000 });
    expect(url.href).toBe(
      'https://video.bunnycdn.com/library/5/videos/abc-def/play?token=secret&expires=1700000000',
    );
    expect(redactUrl(url)).not.toContain('secret');
  });
});
