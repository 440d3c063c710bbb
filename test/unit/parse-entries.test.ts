import { describe, expect, it } from 'vitest';
import type { RawLogEntry } from '../../src/api/index.js';
import {
  parseEmbeddedLog,
  parseOriginEntry,
  parseShieldEntry,
  statusCodeOf,
} from '../../src/ingest/parse-entries.js';

const originLog = JSON.stringify({
  RequestUrl: 'https://cdn.example.com/a.mp4',
  PullZoneId: 101,
  Message: 'Origin timed out',
  ErrorCode: 'http_timeout',
  StatusCode: 504,
});
const entry = (log: string | null, labels: RawLogEntry['labels']): RawLogEntry => ({
  logId: '5b1c8e8e-0000-4000-8000-000000000001',
  timestamp: 1728952065848,
  log,
  labels,
});

describe('parseEmbeddedLog', () => {
  it.each([
    ['an object', '{"a":1}', { a: 1 }, null],
    ['null log', null, null, null],
    ['truncated JSON', '{"a":', null, 'log is not valid JSON'],
    ['a JSON array', '[1,2]', null, 'log is JSON but not an object (array)'],
    ['JSON null', 'null', null, 'log is JSON but not an object (null)'],
    ['a JSON string', '"x"', null, 'log is JSON but not an object (string)'],
    // V8's message quotes the first character by halves: the half is written as its escape.
    ['text opening with a surrogate pair', '😀', null, "Unexpected token '\\ud83d'"],
  ])('%s', (_name, text, obj, error) => {
    const r = parseEmbeddedLog(text);
    expect(r.obj).toEqual(obj);
    if (error === null) expect(r.error).toBeNull();
    else expect(r.error).toContain(error);
  });
});

describe('statusCodeOf', () => {
  it.each([
    [502, 502],
    ['502', 502],
    ['', null],
    ['5o2', null],
    [502.5, null],
    [null, null],
    [undefined, null],
    // Not an HTTP status: NULL in status_code (the log keeps the number as sent).
    [1e21, null],
    [2 ** 60, null],
    [-1, null],
    [10000, null],
  ])('%j → %j', (input, expected) => expect(statusCodeOf(input)).toBe(expected));
});

describe('parseOriginEntry', () => {
  it('takes fields from the log JSON, the server zone from the labels, and keeps both raw', () => {
    const row = parseOriginEntry(
      entry(originLog, { ErrorCode: 'http_timeout', StatusCode: '504', ServerZone: 'DE' }),
    );
    expect(row).toEqual({
      logId: '5b1c8e8e-0000-4000-8000-000000000001',
      timestamp: 1728952065848,
      requestUrl: 'https://cdn.example.com/a.mp4',
      message: 'Origin timed out',
      errorCode: 'http_timeout',
      statusCode: 504,
      serverZone: 'DE',
      log: originLog,
      labels: '{"ErrorCode":"http_timeout","StatusCode":"504","ServerZone":"DE"}',
      parseError: null,
    });
  });

  it('keeps a malformed entry, falling back to the labels (StatusCode there is a string)', () => {
    const row = parseOriginEntry(
      entry('{"RequestUrl":"https://cdn.ex', {
        ErrorCode: 'dns_lookup',
        StatusCode: '502',
        ServerZone: 'NY',
      }),
    );
    expect(row).toMatchObject({
      requestUrl: null,
      message: null,
      errorCode: 'dns_lookup',
      statusCode: 502,
      serverZone: 'NY',
      log: '{"RequestUrl":"https://cdn.ex',
    });
    expect(row.parseError).toMatch(/^log is not valid JSON/);
  });

  it('tolerates missing labels and log', () => {
    expect(parseOriginEntry(entry(null, null))).toMatchObject({
      errorCode: null,
      statusCode: null,
      serverZone: null,
      labels: null,
      parseError: null,
    });
  });
});

describe('parseShieldEntry', () => {
  const labels = {
    asn: '13335',
    country: 'DE',
    ruleId: '941100',
    severity: '2',
    method: 'GET',
    ruleGroup: 'xss',
    status: 'blocked',
    serverZone: 'FR',
  };
  const log = JSON.stringify({
    ServerZoneId: 5,
    Message: 'XSS attempt',
    Url: 'https://x/?q=<script>',
    RemoteIp: '1.2.3.*',
    Headers: [{ Name: 'A', Value: 'b' }],
  });

  it('maps the eight labels and the common log keys', () => {
    expect(parseShieldEntry(entry(log, labels))).toMatchObject({
      asn: '13335',
      country: 'DE',
      ruleId: '941100',
      severity: '2',
      method: 'GET',
      ruleGroup: 'xss',
      status: 'blocked',
      serverZone: 'FR',
      url: 'https://x/?q=<script>',
      remoteIp: '1.2.3.*',
      message: 'XSS attempt',
      log,
      parseError: null,
      extraLabels: null,
    });
  });

  it('keeps labels beyond the documented eight', () => {
    expect(parseShieldEntry(entry(log, { ...labels, action: 'challenge' })).extraLabels).toBe(
      '{"action":"challenge"}',
    );
  });

  it('keeps a malformed entry with its labels and the reason', () => {
    const row = parseShieldEntry(entry('{"Url": "https://x', labels));
    expect(row).toMatchObject({ ruleId: '941100', url: null, log: '{"Url": "https://x' });
    expect(row.parseError).toMatch(/not valid JSON/);
  });
});
