// The terminal form of a log line: a pure function of pino's record, and redaction still applies.
import { describe, expect, it } from 'vitest';
import { colorWanted, fieldValue, formatLogLine, formatLogText } from '../../src/format/log-line.js';
import { createLogger, prettyDestination } from '../../src/logger.js';
import { RAW_CONTROL } from '../support/terminal.js';

const T = Date.UTC(2026, 10, 22, 9, 5, 7, 123);

describe('formatLogLine', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a message', { level: 30, time: T, pid: 42, msg: 'worker running' }, '09:05:07 INFO  worker running\n'],
    [
      'fields as key=value, pid and hostname left out',
      { level: 40, time: T, pid: 1, hostname: 'h', msg: 'slow', zone: 201, date: '2026-11-22' },
      '09:05:07 WARN  slow zone=201 date=2026-11-22\n',
    ],
    [
      'strings with spaces and objects as JSON',
      { level: 30, time: T, msg: 'm', reason: 'two words', zones: [101, 102], ok: true },
      '09:05:07 INFO  m reason="two words" zones=[101,102] ok=true\n',
    ],
    [
      'an error by its type and message, last',
      {
        level: 50,
        time: T,
        msg: 'job failed',
        err: { type: 'PagingError', message: 'token repeats', stack: 'x' },
        jobId: '7',
      },
      '09:05:07 ERROR job failed jobId=7 err=PagingError: token repeats\n',
    ],
    [
      'a plain Error without its type',
      { level: 60, time: T, msg: 'boom', err: { type: 'Error', message: 'no' } },
      '09:05:07 FATAL boom err=no\n',
    ],
    ['debug and trace', { level: 20, time: T, msg: 'closing' }, '09:05:07 DEBUG closing\n'],
    ['no message', { level: 10, time: T, n: 1 }, '09:05:07 TRACE n=1\n'],
    ['an unknown level and no time', { level: 35, msg: 'x' }, '--:--:-- 35    x\n'],
  ];
  it.each(cases)('%s', (_name, record, expected) => {
    expect(formatLogLine(record)).toBe(expected);
  });

  it('cuts long values', () => {
    expect(
      formatLogLine({ level: 30, time: T, msg: 'm', url: `https://x/${'a'.repeat(100)}` }, { maxValue: 20 }),
    ).toBe('09:05:07 INFO  m url=https://x/aaaaaaaaa…\n');
  });

  it('colours the level and dims the fields when asked', () => {
    expect(formatLogLine({ level: 40, time: T, msg: 'slow', zone: 1 }, { color: true })).toBe(
      '09:05:07 \x1b[33mWARN \x1b[0m slow \x1b[2mzone=1\x1b[0m\n',
    );
  });

  it('prints the stack under the line when asked', () => {
    const err = { type: 'Error', message: 'no', stack: 'Error: no\n    at f (x.js:1:1)' };
    expect(formatLogLine({ level: 50, time: T, msg: 'm', err }, { stack: true })).toBe(
      '09:05:07 ERROR m err=no\n    Error: no\n        at f (x.js:1:1)\n',
    );
  });
});

describe('hostile text in a log line', () => {
  it('escapes control, C1 and bidirectional characters in the message and every field', () => {
    const line = formatLogLine({
      level: 40,
      time: T,
      msg: 'day incomplete \x1b[2J',
      url: 'https://x/\x1b]8;;http://evil\x07',
      rule: 'a\u202eb c',
      nested: { v: 'p\u009b1mq' },
      err: { type: 'Error', message: 'HTTP 500 \x1b[31mred\u2066' },
    });
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).toBe(
      '09:05:07 WARN  day incomplete \\x1b[2J url=https://x/\\x1b]8;;http://evil\\x07 ' +
        'rule="a\\u202eb c" nested={"v":"p\\x9b1mq"} err=HTTP 500 \\x1b[31mred\\u2066\n',
    );
  });

  it('escapes a stack too, keeping its line breaks', () => {
    const err = { type: 'Error', message: 'no', stack: 'Error: no\x1b[1m\n    at f (x.js:1:1)' };
    expect(formatLogLine({ level: 50, time: T, msg: 'm', err }, { stack: true })).toBe(
      '09:05:07 ERROR m err=no\n    Error: no\\x1b[1m\n        at f (x.js:1:1)\n',
    );
  });

  it('shows an error message once, whole and unquoted, last on the line', () => {
    const message =
      'http://127.0.0.1:4000/origin/101/11-21-2026: HTTP 401 {"statusCode":401,"message":"' +
      'x'.repeat(200) +
      '"} (check the access key)';
    const line = formatLogLine({
      level: 50,
      time: T,
      msg: 'job failed',
      err: { type: 'AuthError', message },
      jobId: '7',
    });
    expect(line).toBe(`09:05:07 ERROR job failed jobId=7 err=AuthError: ${message}\n`);
  });
});

describe('fieldValue', () => {
  it.each([
    ['word', 'word'],
    ['a b', '"a b"'],
    ['a=b', '"a=b"'],
    ['', '""'],
    [3, '3'],
    [null, 'null'],
    [{ a: 1 }, '{"a":1}'],
  ])('%j → %s', (value, expected) => expect(fieldValue(value)).toBe(expected));
});

describe('formatLogText', () => {
  it('passes a line that is not a JSON object through', () => {
    expect(formatLogText('not json')).toBe('not json\n');
    expect(formatLogText('[1]\n')).toBe('[1]\n');
    expect(formatLogText('not \x1b[2J json\n')).toBe('not \\x1b[2J json\n');
  });
});

describe('colorWanted', () => {
  it('follows NO_COLOR: any non-empty value turns colours off', () => {
    expect(colorWanted({})).toBe(true);
    expect(colorWanted({ NO_COLOR: '' })).toBe(true);
    expect(colorWanted({ NO_COLOR: '1' })).toBe(false);
  });
});

describe('the pretty logger', () => {
  function prettyLines(level = 'info'): { lines: string[]; logger: ReturnType<typeof createLogger> } {
    const lines: string[] = [];
    const destination = prettyDestination(
      { write: (s: string) => void lines.push(s) },
      { color: false, stack: false },
    );
    return { lines, logger: createLogger({ level, destination }) };
  }

  it('still redacts the access key and hook secrets', () => {
    const { lines, logger } = prettyLines();
    logger.info(
      {
        api: { accessKey: 'ak-123' },
        hook: { url: 'https://h', secret: 's3cr3t' },
        headers: { AccessKey: 'ak-456' },
      },
      'configured',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/ak-123|ak-456|s3cr3t/);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}configured api=\{"accessKey":"\[REDACTED\]"\} hook=\{"url":"https:\/\/h","secret":"\[REDACTED\]"\} headers=\{"AccessKey":"\[REDACTED\]"\}\n$/,
    );
  });

  it('keeps the level filter', () => {
    const { lines, logger } = prettyLines('warn');
    logger.info('hidden');
    logger.warn({ policy: 'allkeys-lru' }, 'shown');
    expect(lines.map((l) => l.slice(9))).toEqual(['WARN  shown policy=allkeys-lru\n']);
  });
});
