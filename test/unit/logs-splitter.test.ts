import { describe, expect, it } from 'vitest';
import { LogsSplitter, splitLogs } from '../../src/ingest/logs-splitter.js';
import { DecodeError, OriginBodyDecoder } from '../../src/ingest/decode-page.js';

const elements = (text: string) => {
  const split = splitLogs(text);
  return { items: split.elements, rest: split.rest };
};

/** Feeds `text` in pieces cut at the given offsets. */
const chunked = (text: string, cuts: number[]) => {
  const splitter = new LogsSplitter();
  const items: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    items.push(...splitter.push(text.slice(from, cut)));
    from = cut;
  }
  return { items, rest: splitter.end() };
};

describe('splitLogs', () => {
  it.each([
    [
      'objects',
      '{"logs":[{"a":1},{"b":[2,{"c":"]"}]}],"hasMoreData":false}',
      ['{"a":1}', '{"b":[2,{"c":"]"}]}'],
      '{"logs":[],"hasMoreData":false}',
    ],
    [
      'whitespace everywhere',
      ' { "x" : 1 , "logs" : [ {"a":1} ,\n {"b":2} ] } ',
      ['{"a":1}', '{"b":2}'],
      ' { "x" : 1 , "logs" : [] } ',
    ],
    [
      'brackets and quotes inside strings',
      '{"logs":[{"s":"a\\"]},{[\\\\"}]}',
      ['{"s":"a\\"]},{[\\\\"}'],
      '{"logs":[]}',
    ],
    ['scalars', '{"logs":[1,"x",null,true]}', ['1', '"x"', 'null', 'true'], '{"logs":[]}'],
    ['an empty array', '{"logs":[]}', [], '{"logs":[]}'],
    ['no logs key', '{"other":[1,2]}', [], '{"other":[1,2]}'],
    ['logs: null', '{"logs":null}', [], '{"logs":null}'],
    [
      'a nested "logs" key is not the top-level one',
      '{"meta":{"logs":[9]},"logs":[1]}',
      ['1'],
      '{"meta":{"logs":[9]},"logs":[]}',
    ],
  ])('%s', (_name, text, items, rest) => {
    expect(elements(text)).toEqual({ items, rest });
  });

  it.each([
    ['not an object', '[1,2]'],
    ['a missing element', '{"logs":[1,,2]}'],
    ['a trailing comma', '{"logs":[1,]}'],
    ['a leading comma', '{"logs":[,1]}'],
    ['an unterminated string', '{"logs":["abc]}'],
    ['unbalanced', '{"logs":[1]'],
  ])('refuses %s', (_name, text) => {
    expect(() => splitLogs(text)).toThrow(/at character \d+|ends early/);
  });

  it('gives the same result however the document is cut into chunks', () => {
    const text = '{"a":"x\\"y","logs":[{"k":"v]"}, [1,2] ,"s\\\\",3],"logsX":[4],"z":{"logs":[5]}}';
    const whole = elements(text);
    for (let i = 0; i <= text.length; i++) {
      for (const j of [i, i + 1, i + 7]) expect(chunked(text, [i, Math.min(j, text.length)])).toEqual(whole);
    }
  });

  it('agrees with JSON.parse on generated documents', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const value = (depth: number): unknown => {
      switch (rand(depth > 2 ? 4 : 6)) {
        case 0:
          return rand(1000) - 500;
        case 1:
          return ['a', 'b"]', 'c\\\\', '{[,]}', 'é😀', ''][rand(6)];
        case 2:
          return [null, true, false][rand(3)];
        case 3:
          return rand(2) ? 1.5e-3 : -2.5;
        case 4:
          return Array.from({ length: rand(4) }, () => value(depth + 1));
        default:
          return Object.fromEntries(Array.from({ length: rand(4) }, (_, i) => [`k${i}"}`, value(depth + 1)]));
      }
    };
    for (let n = 0; n < 300; n++) {
      const logs = Array.from({ length: rand(6) }, () => value(0));
      const doc = { before: value(1), logs, after: value(1) };
      const text = JSON.stringify(doc, null, rand(2) ? 1 : undefined);
      const cuts = Array.from({ length: rand(5) }, () => rand(text.length)).sort((a, b) => a - b);
      const split = chunked(text, cuts);
      expect(split.items.map((e) => JSON.parse(e) as unknown)).toEqual(logs);
      expect(JSON.parse(split.rest)).toEqual({ ...doc, logs: [] });
    }
  });
});

describe('OriginBodyDecoder', () => {
  const entry = (i: number) => ({
    logId: `id-${i}`,
    timestamp: 1_700_000_000_000 + i,
    log: JSON.stringify({
      RequestUrl: `https://x/${i}`,
      StatusCode: 502,
      ErrorCode: 'dns_lookup',
      Message: 'm',
    }),
    labels: { ErrorCode: 'dns_lookup', StatusCode: '502', ServerZone: 'DE' },
  });
  const drain = (text: string, size: number, chunk = 5) => {
    const decoder = new OriginBodyDecoder(size);
    const batches = [];
    for (let i = 0; i < text.length; i += chunk) batches.push(...decoder.push(text.slice(i, i + chunk)));
    const { batch, paging } = decoder.end();
    return { batches: [...batches, batch], paging };
  };

  it('yields the entries in batches, in order, and returns the paging fields', () => {
    const text = JSON.stringify({
      logs: Array.from({ length: 7 }, (_, i) => entry(i)),
      hasMoreData: false,
      continuationToken: null,
    });
    const { batches, paging } = drain(text, 3);
    expect(batches.map((b) => b.logId)).toEqual([
      ['id-0', 'id-1', 'id-2'],
      ['id-3', 'id-4', 'id-5'],
      ['id-6'],
    ]);
    expect(batches[0]!.statusCode).toEqual([502, 502, 502]);
    expect(paging).toMatchObject({ hasMoreData: false, continuationToken: null });
  });

  it('an entry without a usable key is set aside with its text as received, the others stored', () => {
    const text = '{"logs":[{"logId":"a","timestamp":1},{ "timestamp" : 2 },{"logId":"c","timestamp":3}]}';
    const { batches } = drain(text, 10);
    expect(batches.flatMap((b) => b.logId)).toEqual(['a', 'c']);
    expect(batches.flatMap((b) => b.rejected)).toEqual([
      { position: 1, raw: '{ "timestamp" : 2 }', reason: 'logId: expected a non-empty string, got nothing' },
    ]);
  });

  it('refuses a body whose elements are parted by whitespace JSON does not know (U+2028, NBSP)', () => {
    // JSON.parse refuses these bodies: trimming an element with trimEnd() let them decode (a fuzz seed).
    for (const space of ['\u2028', '\u00a0']) {
      const text = `{"logs":[${JSON.stringify(entry(1))}${space},${JSON.stringify(entry(2))}],"hasMoreData":false}`;
      expect(() => void JSON.parse(text)).toThrow();
      expect(() => drain(text, 10)).toThrow(DecodeError);
    }
  });

  it('an empty day is one empty batch', () => {
    expect(drain('{"logs":[]}', 10).batches.map((b) => b.logId.length)).toEqual([0]);
    expect(drain('{"logs":null}', 10).batches.map((b) => b.logId.length)).toEqual([0]);
  });

  it.each([
    ['truncated JSON', '{"logs":[{"logId":"a","timestamp":1}', 'malformed-json'],
    ['an element that is not JSON', '{"logs":[{"logId":"a","timestamp":1},{x}]}', 'malformed-json'],
    ['garbage after the array', '{"logs":[] x}', 'malformed-json'],
    ['logs that is not an array', '{"logs":{}}', 'invalid-shape'],
  ])('%s is a DecodeError', (_name, text, kind) => {
    let error: unknown;
    try {
      drain(text, 10);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).kind).toBe(kind);
  });
});
