// metrics.listen: a "host:port" parsed at start, null to turn it off; anything else refused with a line
// naming the key and an example.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';

function refusal(listen: unknown): string {
  try {
    parseConfig({ metrics: { listen } });
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('metrics.listen', () => {
  it('defaults to 127.0.0.1:9469', () => {
    expect(parseConfig({}).metrics.listen).toEqual({ host: '127.0.0.1', port: 9469 });
  });

  it.each([
    ['0.0.0.0:9100', { host: '0.0.0.0', port: 9100 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['metrics.internal:65535', { host: 'metrics.internal', port: 65535 }],
    ['[::1]:9469', { host: '::1', port: 9469 }],
    [null, null],
  ])('accepts %j', (listen, parsed) => {
    expect(parseConfig({ metrics: { listen } }).metrics.listen).toEqual(parsed);
  });

  it.each([
    [
      '9469',
      /metrics\.listen: expected "host:port" with a port from 0 to 65535 \(got "9469"\), e\.g\. "127\.0\.0\.1:9469"/,
    ],
    [':9469', /metrics\.listen: expected "host:port"/],
    [
      '127.0.0.1:65536',
      /metrics\.listen: expected "host:port" with a port from 0 to 65535 \(got "127\.0\.0\.1:65536"\)/,
    ],
    ['::1:9469', /metrics\.listen: expected "host:port"/],
    ['http://127.0.0.1:9469', /metrics\.listen: expected "host:port"/],
    [9469, /metrics\.listen: expected "host:port" or null/],
  ])('refuses %j', (listen, message) => {
    expect(refusal(listen)).toMatch(message);
  });

  it('refuses unknown keys under metrics', () => {
    expect(() => parseConfig({ metrics: { port: 9469 } })).toThrow(/metrics/);
  });
});
