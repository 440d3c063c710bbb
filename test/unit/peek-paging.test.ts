import { describe, expect, it } from 'vitest';
import { guessPaging } from '../../src/ingest/peek-paging.js';

const body = (text: string): ArrayBuffer => new Uint8Array(Buffer.from(text)).buffer;

describe('guessPaging', () => {
  it.each([
    [
      'a page with more',
      '{"logs":[{"logId":"a","timestamp":1,"log":"{\\"continuationToken\\":\\"no\\"}"}],"hasMoreData":true,"continuationToken":"t/+=?#%&","startToken":"s"}',
      { hasMoreData: true, continuationToken: 't/+=?#%&' },
    ],
    [
      'the last page',
      '{"logs":[],"hasMoreData":false,"continuationToken":null}',
      { hasMoreData: false, continuationToken: null },
    ],
    [
      'paging fields before the logs, with spaces',
      '{ "hasMoreData" : true, "continuationToken" : "a\\"b\\u00e9", "logs": [] }',
      { hasMoreData: true, continuationToken: 'a"bé' },
    ],
  ])('%s', (_name, text, expected) => {
    expect(guessPaging(body(text))).toEqual(expected);
  });

  it.each([
    ['no paging fields', '{"logs":[]}'],
    ['a token that is not a string', '{"hasMoreData":true,"continuationToken":12}'],
    ['a truncated token', '{"hasMoreData":true,"continuationToken":"abc'],
    ['hasMoreData that is not a boolean', '{"hasMoreData":"yes","continuationToken":"abc"}'],
    ['not JSON at all', 'upstream timed out'],
  ])('gives up on %s', (_name, text) => {
    expect(guessPaging(body(text))).toBeNull();
  });

  it('takes the last occurrence, as JSON.parse does with a repeated key', () => {
    const text = '{"hasMoreData":true,"continuationToken":"first","continuationToken":"second"}';
    expect(guessPaging(body(text))?.continuationToken).toBe('second');
    expect((JSON.parse(text) as { continuationToken: string }).continuationToken).toBe('second');
  });
});

describe('guessPaging, keys and values', () => {
  it('skips the key’s text where it is a value', () => {
    const text = '{"hasMoreData":true,"continuationToken":"t","note":"continuationToken","x":"hasMoreData"}';
    expect(guessPaging(body(text))).toEqual({ hasMoreData: true, continuationToken: 't' });
  });
});
