// Sorting Redis errors, reconnection timing, and the one-line-per-outage account, as data tables.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { reconnectDelayMs } from '../../src/redis/connection.js';
import { redisFailureKind, type RedisFailureKind } from '../../src/redis/failure-kind.js';
import { RedisOutage } from '../../src/redis/outage.js';

describe('redisFailureKind', () => {
  const cases: Array<[string, { message: string; code?: string }, RedisFailureKind]> = [
    ['refused', { message: 'connect ECONNREFUSED 127.0.0.1:6379', code: 'ECONNREFUSED' }, 'unreachable'],
    ['refused, code lost', { message: 'connect ECONNREFUSED 127.0.0.1:6379' }, 'unreachable'],
    ['reset', { message: 'read ECONNRESET', code: 'ECONNRESET' }, 'unreachable'],
    ['socket gone', { message: 'connect ENOENT /data/redis.sock', code: 'ENOENT' }, 'unreachable'],
    ['closed', { message: 'Connection is closed.' }, 'unreachable'],
    [
      'no offline queue',
      { message: "Stream isn't writeable and enableOfflineQueue options is false" },
      'unreachable',
    ],
    ['retries spent', { message: 'Reached the max retries per request limit (which is 3).' }, 'unreachable'],
    ['loading', { message: 'LOADING Redis is loading the dataset in memory' }, 'unreachable'],
    ['replica', { message: "READONLY You can't write against a read only replica." }, 'unreachable'],
    ['job record gone', { message: 'Missing key for job 14. moveToFinished' }, 'job-lost'],
    ['job lock gone', { message: 'Missing lock for job 3. moveToDelayed' }, 'job-lost'],
    ['script error', { message: 'ERR Error running script' }, 'other'],
    ['out of memory', { message: "OOM command not allowed when used memory > 'maxmemory'." }, 'other'],
  ];
  it.each(cases)('%s', (_name, err, kind) => expect(redisFailureKind(err)).toBe(kind));
});

describe('reconnectDelayMs', () => {
  it.each([
    [1, 200],
    [2, 400],
    [5, 1_000],
    [10, 2_000],
    [1_000, 2_000],
  ])('attempt %i waits %i ms', (attempt, ms) => expect(reconnectDelayMs(attempt)).toBe(ms));
});

function outage(quietMs = 30_000) {
  type Line = { level: number; msg: string; [k: string]: unknown };
  const lines: Line[] = [];
  let clock = 1_000_000;
  const logger = createLogger({
    level: 'info',
    destination: { write: (l: string) => void lines.push(JSON.parse(l) as Line) },
  });
  const o = new RedisOutage({ logger, now: () => clock, quietMs });
  return { o, lines, tick: (ms: number) => (clock += ms) };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

describe('RedisOutage', () => {
  it('logs an outage once however many clients report it, and its end with its length', () => {
    const { o, lines, tick } = outage();
    for (let i = 0; i < 50; i++) {
      o.report(i % 2 ? 'worker' : 'queue', refused);
      tick(1_000);
    }
    expect(o.down).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^Redis unreachable/)]);
    expect(lines[0]).toMatchObject({ level: 40, client: 'queue', err: refused.message });
    expect(o.recovered()).toBe(50_000);
    expect(lines[1]).toMatchObject({
      level: 30,
      msg: 'Redis back after 50 s',
      downMs: 50_000,
      suppressedErrors: 49,
    });
    expect(o.recovered()).toBeUndefined(); // nothing more to say
    o.report('worker', refused); // a new outage is a new line
    expect(lines.length).toBe(3);
  });

  it('logs other errors while Redis is up; during an outage, each distinct one once', () => {
    const { o, lines } = outage();
    const scriptError = new Error('ERR Error running script');
    o.report('worker', scriptError);
    o.report('worker', scriptError);
    expect(lines.filter((l) => l.level === 50).length).toBe(2);
    o.report('worker', refused);
    o.report('worker', scriptError);
    o.report('queue', scriptError);
    o.report('queue', new Error('ERR something else'));
    expect(lines.filter((l) => l.level === 50).map((l) => [l.client, l.msg, l.err])).toEqual([
      ['worker', 'worker error', scriptError.message],
      ['worker', 'worker error', scriptError.message],
      ['worker', 'worker error', scriptError.message],
      ['queue', 'queue error', 'ERR something else'],
    ]);
  });

  it('a lost job record is a warning naming the ledger, not an error', () => {
    const { o, lines } = outage();
    o.report('worker', new Error('Missing key for job 14. moveToFinished'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, err: 'Missing key for job 14. moveToFinished' });
    expect(lines[0]!.msg).toMatch(/ledger keeps the day's progress/);
    expect(o.down).toBe(false);
  });

  it('without a watch to end it, an outage ends after a quiet spell and the next one is logged', () => {
    const { o, lines, tick } = outage(30_000);
    o.report('worker', refused);
    tick(20_000);
    o.report('worker', refused); // still the same outage
    tick(31_000);
    o.report('worker', refused); // quiet for longer than 30 s: a new one
    expect(lines.map((l) => l.msg.slice(0, 17))).toEqual(['Redis unreachable', 'Redis unreachable']);
  });
});
